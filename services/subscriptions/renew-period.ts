import { ApiError } from '../../domain/errors';
import { invoiceTerms, type PlannedInvoice } from '../../domain/subscriptions/billing';
import type { Step } from '../../domain/subscriptions/state';
import { attemptInvoiceCollection, claimIssuedInvoice, planInvoiceCollection, type CollectionDependencies, type CollectionPlan } from '../invoices/collection';
import type { Prisma } from '../../prisma/client';
import { ChargeUnderWay } from '../payments/charge-under-way';
import type { Settlement } from '../payments/settle';
import { saveSubscriptionStep, saveSubscriptionStepIn, type SaveInput } from './save-step';

export interface RenewPeriodInput extends SaveInput {
  invoice: PlannedInvoice;
  /**
   * The step the workflow takes once the invoice is paid (paymentSettled, decided with workflow
   * time), written here when the first charge pays it; null when being paid changes nothing.
   */
  paid: Step | null;
}

/** What the workflow goes on from; the subscription object is left out of its history, which it would only grow. */
export interface RenewPeriodResult {
  /** PAID: settled here, `paid` written. Anything else is left to the invoice's collection workflow. */
  invoice: { id: string; status: string };
}

/**
 * A billing step of the subscription workflow on its happy path, in one activity
 * (docs/subscriptions.md, "Design"), in two transactions around the charge: the state and the
 * invoice it issues saved (saveSubscriptionStepIn) with the claim of the invoice's first
 * automatic charge, which is made as its collection's attempt 0 would make it (same key, same
 * retry count, so a collection started afterwards finds that attempt settled and never charges
 * twice); then the settlement and, if that paid the invoice, the paid step. Every part is keyed
 * (state version, invoice id, charge key): a retry redoes nothing that was done, resumes a claim
 * it finds held, and saves the paid step only if a settlement committed without it (by a run
 * from before the two shared a transaction).
 *
 * A charge that does not pay (declined, refused, under way elsewhere) and a sent invoice are
 * left as they are: the workflow hands them to invoiceCollectionWorkflow, whose dunning decides.
 */
export async function renewPeriod(deps: CollectionDependencies, input: RenewPeriodInput, configuredSchedule: string | undefined): Promise<RenewPeriodResult> {
  const { state, paid } = input;
  let plan: CollectionPlan | null = null;
  if (invoiceTerms(state, state.updatedAt).collectionMethod === 'CHARGE_AUTOMATICALLY') {
    try {
      plan = await planInvoiceCollection(deps, { retryScheduleDays: state.settings.dunning_retry_schedule_days }, configuredSchedule);
    } catch (error) {
      // The collection workflow meets the same refusal and reports it the way it always has.
      if (!(error instanceof ApiError)) throw error;
    }
  }
  // The invoice issued and, to be charged, claimed in one transaction: the claim still commits
  // before the charge is sent.
  const saved = await deps.db.$transaction(async (tx) => {
    const step = await saveSubscriptionStepIn(tx, { state, events: input.events, invoice: input.invoice });
    const claim = plan && step.issued?.status === 'OPEN' ? await claimIssuedInvoice(tx, step.issued, 0) : undefined;
    return { invoice: step.invoice!, claim, row: step.row };
  });
  const invoice = saved.invoice;
  const paidStep: SaveInput | null = paid ? { state: { ...paid.state, latestInvoiceId: invoice.id }, events: paid.events } : null;
  let paidSaved = false;
  let paidSaveFailure: unknown;
  const savePaidStep = async (tx: Prisma.TransactionClient, settlement: Settlement) => {
    if (!paidStep || settlement.invoice.status !== 'PAID') return;
    try {
      await saveSubscriptionStepIn(tx, paidStep, saved.row);
    } catch (error) {
      paidSaveFailure = error;
      throw error;
    }
    paidSaved = true;
  };
  let status = invoice.status;
  if (status === 'OPEN' && plan) {
    try {
      const attempt = { invoiceId: invoice.id, attempt: 0, retriesLeft: plan.retryDelaysMs.length };
      status = (await attemptInvoiceCollection(deps, attempt, savePaidStep, saved.claim)).status;
    } catch (error) {
      // The collection workflow makes the same attempt and meets the same refusal the way it always
      // has. A paid step that could not be saved is no refusal: the activity fails as it always did.
      if (error === paidSaveFailure || !(error instanceof ApiError || error instanceof ChargeUnderWay)) throw error;
    }
  }
  if (status === 'PAID' && paidStep && !paidSaved) await saveSubscriptionStep({ db: deps.db }, paidStep);
  return { invoice: { id: invoice.id, status } };
}
