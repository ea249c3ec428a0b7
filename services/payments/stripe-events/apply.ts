import type { Client } from '@temporalio/client';
import type Stripe from 'stripe';
import type { Database } from '../../../prisma/client';
import { signalInvoicePaid } from '../paid-signals';
import { applyPaymentIntentEvent } from '../provider-decisions';
import { stripeConnectionOf } from '../providers/stripe/connection';
import { announceDispute } from './disputes';
import { applyRefundEvent } from './refund-events';
import { markStripeEventApplied, storedStripeEvent, type StoredStripeEvent, type StripeEventKey } from './stored-events';

export interface StripeEventDependencies {
  db: Database;
  temporal: Client;
  now: () => Date;
}

/** The PaymentIntent's status is the payment's decision (services/payments/provider-decisions.ts). */
const PAYMENT_INTENT_EVENTS = new Set([
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.requires_action',
  'payment_intent.processing',
  'payment_intent.canceled',
]);

const REFUND_EVENTS = new Set(['charge.refunded', 'refund.created', 'refund.updated', 'refund.failed']);

const DISPUTE_CREATED = 'charge.dispute.created';

export interface AppliedStripeEvent {
  type: string;
  /** What applying it did; `ignored: …` when it changed nothing. */
  outcome: string;
}

/**
 * Applies a stored event and marks it applied with its outcome (docs/payments-stripe.md,
 * "Webhooks"); null when it was applied already. Every effect is safe to repeat: a payment moves
 * only from the status it was read in, a refund only while PENDING, a dispute is announced in the
 * transaction that marks its event. So a run that dies between the effect and the mark, or two
 * runs racing (the API after its answer, the sweep), change nothing twice; the first mark's
 * outcome is the one kept.
 */
export async function applyStripeEvent(deps: StripeEventDependencies, key: StripeEventKey): Promise<AppliedStripeEvent | null> {
  const event = await storedStripeEvent(deps.db, key);
  if (!event || event.appliedAt) return null;
  const outcome = await effectOf(deps, event);
  await markStripeEventApplied(deps.db, key, outcome, deps.now());
  return { type: event.type, outcome };
}

async function effectOf(deps: StripeEventDependencies, event: StoredStripeEvent): Promise<string> {
  const object = (event.payload as unknown as Stripe.Event).data?.object as unknown;
  if (!object || typeof object !== 'object') return `ignored: ${event.type} carries no object`;
  const connection = () => stripeConnectionOf(deps.db, event.accountId);
  if (PAYMENT_INTENT_EVENTS.has(event.type)) {
    const decision = await applyPaymentIntentEvent(
      { ...deps, announcePaid: (invoice) => signalInvoicePaid(deps.temporal, invoice) },
      { accountId: event.accountId, paymentIntent: object as Stripe.PaymentIntent },
    );
    return decision.applied ? `payment ${decision.paymentId} ${decision.status}` : `ignored: ${decision.reason}`;
  }
  if (REFUND_EVENTS.has(event.type)) {
    return applyRefundEvent({ db: deps.db, now: deps.now, connection }, event.accountId, event.type, object as Stripe.Refund | Stripe.Charge);
  }
  if (event.type === DISPUTE_CREATED) {
    return announceDispute({ db: deps.db, now: deps.now, connection }, { accountId: event.accountId, eventId: event.eventId }, object as Stripe.Dispute);
  }
  return `ignored: ${event.type} is not an event the platform acts on`;
}
