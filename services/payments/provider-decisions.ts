import type Stripe from 'stripe';
import { isWaitingPayment } from '../../domain/payments';
import { outcomeOfPaymentIntent } from '../../domain/stripe-outcomes';
import type { Database, Prisma } from '../../prisma/client';
import { summaryOf } from './charge';
import { parsePayChargeKey } from './charge-keys';
import type { PaymentRow } from './payment-rows';
import type { ProcessedCharge } from './providers/provider';
import { paymentOfIntent } from './providers/stripe/payment-of-intent';
import type { InvoiceObject } from '../invoices/invoice-object';
import { lockInvoice, settleCharge, type Settlement } from './settle';
import { resolveWaitingPayment } from './payment-rows';
import { movementOf } from './waiting-payments';

export interface DecisionDependencies {
  db: Database;
  now: () => Date;
  /**
   * After the commit of a decision that paid the invoice outside its collection: the signals a
   * manual pay sends (paid-signals.ts). Absent inside a collection attempt, which sees PAID itself.
   */
  announcePaid?: (invoice: InvoiceObject) => Promise<void>;
}

/** What applying a provider's word did, for the event's record and the logs. */
export type DecisionOutcome = { applied: true; paymentId: string; status: string } | { applied: false; reason: string };

/**
 * A PaymentIntent as Stripe reports it (a webhook's object): the payment it belongs to
 * (paymentOfIntent) is brought to the PaymentIntent's status and its invoice settled.
 */
export async function applyPaymentIntentEvent(deps: DecisionDependencies, input: { accountId: string; paymentIntent: Stripe.PaymentIntent }): Promise<DecisionOutcome> {
  const { paymentIntent } = input;
  const payment = await paymentOfIntent(deps.db, input.accountId, paymentIntent);
  if (!payment) return { applied: false, reason: `no payment of this account made PaymentIntent ${paymentIntent.id}` };
  const outcome = outcomeOfPaymentIntent({
    id: paymentIntent.id,
    status: paymentIntent.status,
    fee: null,
    nextActionUrl: paymentIntent.next_action?.redirect_to_url?.url ?? null,
    lastPaymentError: paymentIntent.last_payment_error ?? null,
  });
  if (outcome.outcome === 'UNCONFIRMED') return { applied: false, reason: 'PaymentIntent not confirmed yet' };
  return applyProviderDecision(deps, payment, outcome);
}

/**
 * The provider's later word on a payment (docs/payments-stripe.md, "Webhooks"). A payment the
 * charge path still holds (PROCESSING, PENDING) is left to it: it asks the provider's books
 * itself. A waiting payment moves once (compare-and-set on its status), in one transaction with
 * its invoice's settlement, under the invoice's lock: a repeated or out-of-order event changes
 * nothing twice, a crash between the two cannot leave money taken and the invoice unpaid, and
 * a pay claiming the invoice meanwhile waits for the lock and then sees it paid.
 */
export async function applyProviderDecision(deps: DecisionDependencies, payment: PaymentRow, result: ProcessedCharge): Promise<DecisionOutcome> {
  const to = movementOf(payment, result);
  if (!to) return { applied: false, reason: `payment ${payment.id} is ${payment.status}` };
  const decided = await deps.db.$transaction(async (tx) => {
    if (payment.invoiceId) await lockInvoice(tx, payment.invoiceId);
    const moved = await resolveWaitingPayment(tx, payment, deps.now(), to);
    if (!moved) return null;
    return { moved, settlement: await settleInvoiceOf(tx, deps.now(), moved, payment.status) };
  });
  if (!decided) return { applied: false, reason: `payment ${payment.id} was decided by another caller` };
  if (decided.settlement?.applied && deps.announcePaid) await deps.announcePaid(decided.settlement.invoice);
  return { applied: true, paymentId: decided.moved.id, status: decided.moved.status };
}

/**
 * The invoice side of a decided payment. One still holding the invoice's guard (it was
 * AWAITING_PROVIDER) settles as its charge would have: a manual pay's here, a collection
 * attempt's by its own activity, which retries until the payment is decided. One whose charge
 * released the guard (REQUIRES_ACTION) settles late: paid if it succeeded.
 */
async function settleInvoiceOf(tx: Prisma.TransactionClient, now: Date, payment: PaymentRow, was: string): Promise<Settlement | undefined> {
  if (!payment.invoiceId || isWaitingPayment(payment.status)) return undefined;
  const pay = parsePayChargeKey(payment.idempotencyKey);
  if (was === 'AWAITING_PROVIDER' && !pay) return undefined;
  // Its failure was announced when it came to need the customer's action: only a success is news.
  if (was === 'REQUIRES_ACTION' && payment.status !== 'SUCCEEDED') return undefined;
  return settleCharge(tx, {
    invoiceId: payment.invoiceId,
    key: payment.idempotencyKey,
    amount: payment.amount,
    charge: summaryOf(payment),
    origin: { kind: 'pay' },
    instrumentId: payment.instrumentId,
    now,
    late: was === 'REQUIRES_ACTION',
  });
}
