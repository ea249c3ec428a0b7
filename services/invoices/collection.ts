import { isRetrySchedule, RETRY_SCHEDULE_RULE } from '../../domain/dunning-schedule';
import { canTransition, nextStatus } from '../../domain/invoice-status';
import { ApiError } from '../../domain/errors';
import type { Database, Prisma } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import type { ProviderRegistry } from '../payments/providers/registry';
import { chargePayment } from '../payments/charge';
import { collectionChargeKey, parsePayChargeKey, payClaimAbandoned, type PayChargeKey } from '../payments/charge-keys';
import { ChargeUnderWay } from '../payments/charge-under-way';
import { chosenInstrument, collectionInstrument, finishClaimedCharge, type ChargeTerms, type CollectDependencies, type SettlementFollowUp } from '../payments/collect';
import { holdChargeGuard, lockInvoice } from '../payments/settle';
import { paymentByKey } from '../payments/payment-rows';
import { withdrawWaitingPayments } from '../payments/waiting-for-action';
import { serializeInvoice } from './invoice-object';
import { updateInvoiceColumns } from './invoice-columns-update';

/** Days after the first failed charge at which dunning retries: docs/dunning.md. */
export const DEFAULT_RETRY_SCHEDULE_DAYS: readonly number[] = [1, 3, 5, 7];
const DAY_MS = 24 * 60 * 60 * 1000;

export interface PlanInput {
  /** Absent in histories from before sent invoices were collected: those were all charged. */
  invoiceId?: string;
  retryScheduleDays?: number[];
}

export interface CollectionPlan {
  retryDelaysMs: number[];
  /** A sent (SEND_INVOICE) invoice's due date, epoch ms: it is paid by hand, never charged. */
  dueAt?: number;
}

export interface PastDueInput {
  invoiceId: string;
  /** False at the due date (OPEN → DUNNING), true when the grace after it ran out (DUNNING → UNPAID). */
  final: boolean;
}

export interface AttemptInput {
  invoiceId: string;
  /** 0 is the first automatic charge, 1… the dunning retries. */
  attempt: number;
  /** Retries still scheduled after this attempt. */
  retriesLeft: number;
}

export interface AttemptResult {
  /** The invoice's status afterwards; MISSING when its finalize rolled back. */
  status: string;
  /** True while the invoice is in dunning with retries to come. */
  retry: boolean;
  paymentId?: string;
}

/**
 * A schedule is offsets in days from the first failure, strictly increasing, each > 0. The
 * workflow input wins, then `DUNNING_RETRY_SCHEDULE_DAYS` of the worker (comma-separated),
 * then the default.
 */
export function parseRetrySchedule(days: readonly number[], source: string): number[] {
  if (!isRetrySchedule(days)) {
    throw new ApiError('INVALID_RETRY_SCHEDULE', `${source}: ${RETRY_SCHEDULE_RULE} Got ${JSON.stringify(days)}.`);
  }
  return [...days];
}

/**
 * A manual pay holds the invoice's charge guard: one abandoned past its lease is handed back to
 * be finished first; one under way throws ChargeUnderWay, to be tried again until the pay has
 * finished and its outcome decides what is left to do.
 */
function abandonedManualPay(invoiceId: string, held: string, now: Date): PayChargeKey {
  const manual = parsePayChargeKey(held);
  if (manual && payClaimAbandoned(manual, now)) return manual;
  throw new ChargeUnderWay(invoiceId);
}

export interface CollectionDependencies {
  db: Database;
  now: () => Date;
  /** The sandbox registry unless given. */
  providers?: ProviderRegistry;
}

/** Finishes a manual pay whose process died: it may well have paid the invoice. */
async function finishAbandonedPay(deps: CollectionDependencies, invoiceId: string, manual: PayChargeKey): Promise<void> {
  await finishClaimedCharge(collectDependencies(deps), { invoiceId, key: manual.key, instrumentId: manual.instrumentId, origin: { kind: 'pay' } }, (work) => deps.db.$transaction(work));
}

function collectDependencies(deps: CollectionDependencies): CollectDependencies {
  return { db: deps.db, charge: (charge) => chargePayment(deps, charge), now: deps.now };
}
/**
 * The retry delays in milliseconds after the first failure and, for a sent invoice, its due
 * date: fixed once per workflow run (recorded in its history). The workflow input's schedule
 * wins, then `configured` (the worker's DUNNING_RETRY_SCHEDULE_DAYS), then the default.
 */
export async function planInvoiceCollection(deps: Pick<CollectionDependencies, 'db'>, input: PlanInput, configured: string | undefined): Promise<CollectionPlan> {
  const days = input.retryScheduleDays
    ? parseRetrySchedule(input.retryScheduleDays, 'retryScheduleDays')
    : configured
      ? parseRetrySchedule(configured.split(',').map((d) => Number(d.trim())), 'DUNNING_RETRY_SCHEDULE_DAYS')
      : [...DEFAULT_RETRY_SCHEDULE_DAYS];
  const invoice = input.invoiceId ? await deps.db.invoice.findUnique({ where: { id: input.invoiceId }, select: { collectionMethod: true, dueAt: true } }) : null;
  const sent = invoice?.collectionMethod === 'SEND_INVOICE' && invoice.dueAt !== null;
  return { retryDelaysMs: days.map((d) => Math.round(d * DAY_MS)), ...(sent ? { dueAt: invoice.dueAt!.getTime() } : {}) };
}

/**
 * A sent invoice still owed when its due date, or the grace after it, has passed
 * (docs/dunning.md, "Sent invoices"): OPEN → DUNNING with InvoiceDunningStarted, then
 * DUNNING → UNPAID with InvoiceUnpaid, in one transaction under the invoice's lock. An
 * invoice paid or voided meanwhile is left as it is; its status is the answer.
 */
export async function invoicePastDue(deps: CollectionDependencies, input: PastDueInput): Promise<{ status: string }> {
  const transition = input.final ? 'dunningExhausted' : 'pastDue';
  for (;;) {
    const step = await deps.db.$transaction(async (tx) => {
      const invoice = await lockInvoice(tx, input.invoiceId);
      if (!invoice) return { done: 'MISSING' } as const;
      if (!canTransition(transition, invoice.status)) return { done: invoice.status } as const;
      if (invoice.paymentInProgressId) return { abandoned: abandonedManualPay(input.invoiceId, invoice.paymentInProgressId, deps.now()) } as const;
      const now = deps.now();
      const row = await updateInvoiceColumns(tx, invoice, { status: nextStatus(transition, invoice.status), updatedAt: now });
      await recordEvent(tx, {
        accountId: row.accountId,
        channelId: row.channelId,
        name: input.final ? 'InvoiceUnpaid' : 'InvoiceDunningStarted',
        data: { invoice: serializeInvoice(row, { now }) },
        occurredAt: now,
      });
      return { done: row.status } as const;
    });
    if ('abandoned' in step) {
      await finishAbandonedPay(deps, input.invoiceId, step.abandoned!);
      continue;
    }
    return { status: step.done };
  }
}

/** Whether the invoice still owes money the workflow may collect (OPEN or DUNNING). */
export async function invoiceCollectionStatus(deps: Pick<CollectionDependencies, 'db'>, { invoiceId }: { invoiceId: string }): Promise<{ status: string; collectible: boolean }> {
  const row = await deps.db.invoice.findUnique({ where: { id: invoiceId }, select: { status: true } });
  const status = row?.status ?? 'MISSING';
  return { status, collectible: canTransition('chargeSucceeded', status) };
}

/** A collection attempt's claim, held: what it charges, with which instrument. */
export interface AttemptClaim {
  instrumentId: string | undefined;
  terms: ChargeTerms;
}

/**
 * Claims `attempt` of an invoice finalized in the caller's transaction, committed with it:
 * nobody else can see that invoice yet, so nobody holds its guard, has settled an attempt or has
 * started a payment under its key.
 * attemptInvoiceCollection goes on from the claim (`claimed`); a retry that finds the invoice
 * committed claims as usual and resumes this claim under the same key.
 */
export async function claimIssuedInvoice(
  tx: Prisma.TransactionClient,
  invoice: { id: string; accountId: string; customerId: string; amountDue: number; currency: string; paymentInstrumentId: string | null },
  attempt: number,
): Promise<AttemptClaim> {
  const key = collectionChargeKey(invoice.id, attempt);
  await holdChargeGuard(tx, invoice.id, key);
  const terms = { accountId: invoice.accountId, customerId: invoice.customerId, amountDue: invoice.amountDue, currency: invoice.currency };
  return { instrumentId: await chosenInstrument(tx, invoice), terms };
}

/**
 * One charge of the invoice (docs/dunning.md): claims the invoice's charge guard under the
 * attempt's deterministic key (unless `claimed` by claimIssuedInvoice), charges and settles.
 * Retried by Temporal after any crash: a claim already held under this key is resumed, so the
 * attempt charges at most once, and an attempt already settled answers with its recorded
 * outcome, so it is announced once. `followUp` commits with the settlement this call applies,
 * never with an earlier one.
 */
export async function attemptInvoiceCollection(deps: CollectionDependencies, input: AttemptInput, followUp?: SettlementFollowUp, claimed?: AttemptClaim): Promise<AttemptResult> {
  const key = collectionChargeKey(input.invoiceId, input.attempt);
  const origin = { kind: 'collection' as const, attempt: input.attempt, retriesLeft: input.retriesLeft };
  // Not for the first attempt of an invoice just issued: nothing can have charged it yet.
  if (!claimed) await withdrawWaitingPayments(deps, input.invoiceId);
  for (;;) {
    const step = claimed ?? await deps.db.$transaction(async (tx) => {
      const invoice = await lockInvoice(tx, input.invoiceId);
      if (!invoice) return { done: 'MISSING' } as const;
      if (invoice.paymentInProgressId !== key) {
        if (invoice.collectionAttemptsSettled > input.attempt) {
          const payment = await paymentByKey(tx, invoice.accountId, key);
          return { settled: invoice.status, paymentId: payment?.id } as const;
        }
        if (!canTransition('chargeSucceeded', invoice.status)) return { done: invoice.status } as const;
        if (invoice.paymentInProgressId) return { abandoned: abandonedManualPay(input.invoiceId, invoice.paymentInProgressId, deps.now()) } as const;
        await holdChargeGuard(tx, invoice.id, key);
      }
      // Read under the lock with the claim held: only settling this charge changes them now.
      const terms = { accountId: invoice.accountId, customerId: invoice.customerId, amountDue: invoice.amountDue, currency: invoice.currency };
      return { instrumentId: await collectionInstrument(tx, invoice, key), terms } as const;
    });
    claimed = undefined;
    if ('done' in step) return { status: step.done!, retry: false };
    if ('settled' in step) return resultOf(step.settled!, input.retriesLeft, step.paymentId);
    if ('abandoned' in step) {
      await finishAbandonedPay(deps, input.invoiceId, step.abandoned!);
      continue;
    }
    const settlement = await finishClaimedCharge(
      collectDependencies(deps),
      { invoiceId: input.invoiceId, key, instrumentId: step.instrumentId, origin, terms: step.terms },
      (work) => deps.db.$transaction(work),
      followUp,
    );
    // The provider is still processing the charge (docs/payments-stripe.md): the attempt holds
    // the invoice and is retried by Temporal, each retry asking the provider, until it decides.
    if (settlement.payment.status === 'PENDING') throw new Error(`Payment ${settlement.payment.id} of ${input.invoiceId} awaits its provider's decision.`);
    return resultOf(settlement.invoice.status, input.retriesLeft, settlement.payment.id);
  }
}

function resultOf(status: string, retriesLeft: number, paymentId: string | undefined): AttemptResult {
  return { status, retry: status === 'DUNNING' && retriesLeft > 0, ...(paymentId ? { paymentId } : {}) };
}
