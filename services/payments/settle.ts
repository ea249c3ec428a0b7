import type { ChargeSummary } from './charge';
import type { EventName } from '../../domain/event-catalogue';
import { canTransition, nextStatus, type InvoiceTransition } from '../../domain/invoice-status';
import type { Prisma } from '../../prisma/client';
import { outboxRow } from '../../prisma/outbox';
import { readRows, sqlStatement, writeRows } from '../../prisma/statements';
import { invoiceSelect, serializeInvoice, type InvoiceObject } from '../invoices/invoice-object';
import { readChargeableInvoice } from '../invoices/invoice-read';
import { invoiceObjectOf } from '../invoices/repository';
import { updateInvoiceColumns, withInvoiceColumns } from '../invoices/invoice-columns-update';
import type { PaymentObject } from './payment-objects';

type Db = Prisma.TransactionClient;

/** `invoiceSelect` plus the charge guard and the collection attempts settled, which the invoice object does not show. */
export const chargeableInvoiceSelect = { ...invoiceSelect, paymentInProgressId: true, collectionAttemptsSettled: true } as const satisfies Prisma.InvoiceSelect;
export type ChargeableInvoice = Prisma.InvoiceGetPayload<{ select: typeof chargeableInvoiceSelect }>;

/**
 * Takes the invoice's row lock: claims, settlements, voids and refunds of one invoice go one at a
 * time. The read is a statement of its own after the lock, so it sees what the previous holder
 * committed (services/invoices/repository.ts, lockVisibleInvoice).
 */
const lockRow = sqlStatement('payments.lock_invoice', 'SELECT id FROM invoices WHERE id = $1 FOR UPDATE');
const holdGuard = sqlStatement('payments.hold_charge_guard', 'UPDATE invoices SET payment_in_progress_id = $2 WHERE id = $1');

export async function lockInvoice(tx: Db, invoiceId: string): Promise<ChargeableInvoice | null> {
  await readRows(tx, lockRow, [invoiceId]);
  return readChargeableInvoice(tx, invoiceId);
}


/** Claims the invoice's charge guard for `key`, under lockInvoice: the one charge that may settle it until released. */
export async function holdChargeGuard(tx: Db, invoiceId: string, key: string): Promise<void> {
  await writeRows(tx, holdGuard, [invoiceId, key]);
}

/** A charge that ended without a payment record: there was no instrument to charge. */
export const NO_INSTRUMENT: Omit<ChargeSummary, 'paymentId'> = {
  status: 'DECLINED',
  declineCode: 'payment_instrument_missing',
  declineMessage: 'Neither the invoice nor its customer has a usable payment instrument.',
  retryable: false,
};

export type ChargeEnd = Omit<ChargeSummary, 'paymentId'> & { paymentId?: string };

/**
 * Who charged: a manual invoices/pay, or attempt `attempt` of the collection workflow with
 * `retriesLeft` dunning retries still scheduled after it.
 */
export type ChargeOrigin = { kind: 'pay' } | { kind: 'collection'; attempt: number; retriesLeft: number };

export interface Settlement {
  invoice: InvoiceObject;
  payment: PaymentObject;
  /** False when another process had settled this charge already: nothing was written. */
  applied: boolean;
}

/**
 * Applies a finished charge to its invoice, in one transaction with its events, and releases
 * the invoice's charge guard. Only the holder of the guard writes: a charge finished twice (a
 * retry racing its own resumption) is applied once; the second call just reads.
 *
 * Success moves to PAID (InvoicePaid). A failure emits InvoicePaymentFailed and, for the
 * workflow's attempts: the first attempt's retryable failure starts dunning (DUNNING,
 * InvoiceDunningStarted), a failure with no retry left or a non-retryable one during dunning
 * ends it (UNPAID, InvoiceUnpaid); a non-retryable first attempt leaves the invoice OPEN.
 */
export async function settleCharge(
  tx: Db,
  input: {
    invoiceId: string;
    key: string;
    amount: number;
    charge: ChargeEnd;
    origin: ChargeOrigin;
    instrumentId?: string;
    now: Date;
    /**
     * A provider's later decision on a payment whose charge released the guard already (the
     * customer authenticated after REQUIRES_ACTION): applied without the guard, which it leaves
     * as it is. The caller applies each such decision once (services/payments/provider-decisions.ts).
     */
    late?: boolean;
  },
): Promise<Settlement> {
  const { now, charge } = input;
  const invoice = (await lockInvoice(tx, input.invoiceId))!;
  const payment = paymentObjectOf(input.amount, invoice.currency, charge, input.instrumentId);
  const own = invoice.paymentInProgressId === input.key;
  // A provider still processing holds the invoice: the guard stays, so nobody charges it again
  // before the provider decides (its webhook or the payment's next caller settles it).
  if ((!own && !input.late) || charge.status === 'AWAITING_PROVIDER') {
    return { invoice: await invoiceObjectOf(tx, invoice, now), payment, applied: false };
  }

  const transition = transitionOf(invoice.status, charge, own ? input.origin : { kind: 'pay' });
  const succeeded = charge.status === 'SUCCEEDED';
  const amountPaid = invoice.amountPaid + (succeeded ? input.amount : 0);
  const change = {
    ...(own ? { paymentInProgressId: null } : {}),
    // A retry of this attempt reads it and returns the outcome instead of claiming anew.
    ...(own && input.origin.kind === 'collection' ? { collectionAttemptsSettled: input.origin.attempt + 1 } : {}),
    ...(transition ? { status: nextStatus(transition, invoice.status), updatedAt: now } : {}),
    ...(succeeded ? { amountPaid, amountDue: Math.max(0, invoice.amountDue - input.amount), paidAt: now } : {}),
  };
  // The answer and its events from the row as the update leaves it, written in the update's statement.
  const object = serializeInvoice(withInvoiceColumns(invoice, change), { now });
  // A success with no transition (the invoice left the collectible statuses meanwhile) is kept
  // in amount_paid for the books but announces no payment of the invoice.
  const events: EventName[] = succeeded ? (transition ? ['InvoicePaid'] : []) : ['InvoicePaymentFailed'];
  if (charge.status === 'REQUIRES_ACTION') events.push('InvoicePaymentActionRequired');
  if (transition === 'chargeFailedRetryable') events.push('InvoiceDunningStarted');
  if (transition === 'chargeFailedFinal' || transition === 'dunningExhausted') events.push('InvoiceUnpaid');
  await updateInvoiceColumns(
    tx,
    invoice,
    change,
    events.map((name) => outboxRow({ accountId: invoice.accountId, channelId: invoice.channelId, name, data: { invoice: object, payment }, occurredAt: now })),
  );
  return { invoice: object, payment, applied: true };
}

function transitionOf(status: string, charge: ChargeEnd, origin: ChargeOrigin): InvoiceTransition | undefined {
  const wanted = ((): InvoiceTransition | undefined => {
    if (charge.status === 'SUCCEEDED') return origin.kind === 'pay' ? 'pay' : 'chargeSucceeded';
    if (origin.kind === 'pay') return undefined;
    if (origin.attempt === 0) {
      if (!charge.retryable) return undefined;
      return origin.retriesLeft > 0 ? 'chargeFailedRetryable' : 'chargeFailedFinal';
    }
    if (!charge.retryable) return 'chargeFailedFinal';
    return origin.retriesLeft > 0 ? undefined : 'dunningExhausted';
  })();
  // A charge settles on the status it was claimed in: void refuses while one is under way.
  return wanted && canTransition(wanted, status) ? wanted : undefined;
}

export function paymentObjectOf(amount: number, currency: string, charge: ChargeEnd, instrumentId?: string): PaymentObject {
  return {
    ...(charge.paymentId ? { id: charge.paymentId } : {}),
    // Inside, a payment the provider is processing is AWAITING_PROVIDER, apart from the charge path's own PENDING.
    status: charge.status === 'AWAITING_PROVIDER' ? 'PENDING' : charge.status,
    amount,
    currency,
    ...(charge.declineCode ? { decline_code: charge.declineCode } : {}),
    ...(charge.declineMessage ? { decline_message: charge.declineMessage } : {}),
    retryable: charge.retryable,
    ...(charge.provider ? { provider: charge.provider } : {}),
    ...(charge.providerChargeId && charge.provider && !charge.provider.startsWith('sandbox-') ? { provider_reference: charge.providerChargeId } : {}),
    ...(charge.nextActionUrl ? { next_action_url: charge.nextActionUrl } : {}),
    ...(instrumentId ? { payment_instrument_id: instrumentId } : {}),
  };
}
