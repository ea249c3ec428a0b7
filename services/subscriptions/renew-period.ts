import { ApiError } from '../../domain/errors';
import { invoiceTerms, type PlannedInvoice } from '../../domain/subscriptions/billing';
import type { Step } from '../../domain/subscriptions/state';
import { attemptInvoiceCollection, planInvoiceCollection, type CollectionDependencies } from '../invoices/collection';
import { ChargeUnderWay } from '../payments/charge-under-way';
import { saveSubscriptionStep, type SaveInput } from './save-step';
import type { SubscriptionObject } from './subscription-object';

export interface RenewPeriodInput extends SaveInput {
  invoice: PlannedInvoice;
  /**
   * The step the workflow takes once the invoice is paid (paymentSettled, decided with workflow
   * time), written here when the first charge pays it; null when being paid changes nothing.
   */
  paid: Step | null;
}

export interface RenewPeriodResult {
  subscription: SubscriptionObject;
  /** PAID: settled here, `paid` written. Anything else is left to the invoice's collection workflow. */
  invoice: { id: string; status: string };
}

/**
 * A billing step of the subscription workflow on its happy path, in one activity
 * (docs/subscriptions.md, "Design"): the state and the invoice it issues saved
 * (saveSubscriptionStep), the invoice's first automatic charge made as its collection's attempt 0
 * would make it (same key, same retry count, so a collection started afterwards finds that
 * attempt settled and never charges twice), and, if that paid it, the paid step saved. Every part
 * is keyed (state version, invoice id, charge key): a retry redoes nothing that was done.
 *
 * A charge that does not pay (declined, refused, under way elsewhere) and a sent invoice are
 * left as they are: the workflow hands them to invoiceCollectionWorkflow, whose dunning decides.
 */
export async function renewPeriod(deps: CollectionDependencies, input: RenewPeriodInput, configuredSchedule: string | undefined): Promise<RenewPeriodResult> {
  const { state } = input;
  const saved = await saveSubscriptionStep({ db: deps.db }, { state, events: input.events, invoice: input.invoice });
  const invoice = saved.invoice!;
  let status = invoice.status;
  if (status === 'OPEN' && invoiceTerms(state, state.updatedAt).collectionMethod === 'CHARGE_AUTOMATICALLY') {
    try {
      const plan = await planInvoiceCollection(deps, { retryScheduleDays: state.settings.dunning_retry_schedule_days }, configuredSchedule);
      status = (await attemptInvoiceCollection(deps, { invoiceId: invoice.id, attempt: 0, retriesLeft: plan.retryDelaysMs.length })).status;
    } catch (error) {
      // The collection workflow makes the same attempt and meets the same refusal the way it always has.
      if (!(error instanceof ApiError || error instanceof ChargeUnderWay)) throw error;
    }
  }
  if (status !== 'PAID' || !input.paid) return { subscription: saved.subscription, invoice: { id: invoice.id, status } };
  const settled = await saveSubscriptionStep({ db: deps.db }, { state: { ...input.paid.state, latestInvoiceId: invoice.id }, events: input.paid.events });
  return { subscription: settled.subscription, invoice: { id: invoice.id, status } };
}
