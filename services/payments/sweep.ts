import type { Client } from '@temporalio/client';
import type { Database } from '../../prisma/client';
import type { ProviderRegistry } from './providers/registry';
import { chargePayment } from './charge';
import { abandonedPayClaims, finishClaimedCharge, type CollectDependencies } from './collect';
import { signalInvoicePaid } from './paid-signals';
import { abandonedRefunds, finishRefund } from './refunds';
import type { Settlement } from './settle';
import { applyStripeEvent } from './stripe-events/apply';
import { unappliedStripeEvents } from './stripe-events/stored-events';
import { giveUpWhenStale, STRIPE_EVENT_GRACE_MS } from './stripe-events/unapplied';

export interface PaymentSweepInput {
  /** Pay claims, refunds and Stripe events finished per call, at most, each. */
  limit: number;
}

export interface PaymentSweepResult {
  /** Abandoned pay claims finished (settled by this sweep or found settled). */
  charges: number;
  /** Abandoned refunds finished. */
  refunds: number;
  /** Stripe events the API stored but did not apply (docs/payments-stripe.md, "Webhooks"), applied. */
  stripeEvents: number;
  /** Items that threw: logged, left for the next sweep. */
  failed: number;
  /** A batch came back full and none failed: more may be waiting now. */
  more: boolean;
}

export interface PaymentSweepDependencies {
  db: Database;
  temporal: Client;
  now: () => Date;
  /** The sandbox registry unless given. */
  providers?: ProviderRegistry;
  /** Told before each item, with the counts so far (the activity heartbeats). */
  progress: (result: PaymentSweepResult) => void;
  warn: (message: string, details: Record<string, unknown>) => void;
}

/**
 * Finishes money movements whose request died (docs/invoice-payments.md, "The payment
 * sweeper"): manual pay claims past their lease are charged under their own key (the charge
 * path returns or resumes the payment already made, so nobody is charged twice) and settled
 * exactly as invoices/pay settles; refunds left PENDING past their lease are asked of the
 * provider under their own key and recorded SUCCEEDED or FAILED; Stripe events stored but left
 * unapplied past a few seconds are applied, oldest first. Each item settles once however often
 * it is swept: only the holder of the guard, or of the PENDING refund, writes, and an event's
 * effects change nothing twice.
 */
export async function sweepAbandonedPayments(deps: PaymentSweepDependencies, { limit }: PaymentSweepInput): Promise<PaymentSweepResult> {
  const { db } = deps;
  const collect: CollectDependencies = { db, charge: (charge) => chargePayment(deps, charge), now: deps.now };
  const now = deps.now();
  const claims = await abandonedPayClaims(db, now, limit);
  const refundIds = await abandonedRefunds(db, now, { take: limit });
  const events = await unappliedStripeEvents(db, new Date(now.getTime() - STRIPE_EVENT_GRACE_MS), limit);
  const result: PaymentSweepResult = { charges: 0, refunds: 0, stripeEvents: 0, failed: 0, more: false };
  for (const { invoiceId, claim } of claims) {
    deps.progress(result);
    let settlement: Settlement;
    try {
      settlement = await finishClaimedCharge(
        collect,
        { invoiceId, key: claim.key, instrumentId: claim.instrumentId, origin: { kind: 'pay' } },
        (work) => db.$transaction(work),
      );
      result.charges++;
    } catch (error) {
      result.failed++;
      deps.warn('Abandoned invoice charge not finished; the next sweep retries it', { invoiceId, error: String(error) });
      continue;
    }
    // The settlement is committed: a signal that cannot be sent is logged, not retried (a
    // dunning still ends at its next attempt, which re-reads the invoice).
    if (settlement.applied) {
      await signalInvoicePaid(deps.temporal, settlement.invoice).catch((error: unknown) =>
        deps.warn('Invoice paid by the sweep; signal not sent', { invoiceId, error: String(error) }),
      );
    }
  }
  for (const refundId of refundIds) {
    deps.progress(result);
    try {
      await finishRefund(db, refundId, (work) => db.$transaction(work), deps.now);
      result.refunds++;
    } catch (error) {
      result.failed++;
      deps.warn('Abandoned refund not finished; the next sweep retries it', { refundId, error: String(error) });
    }
  }
  for (const event of events) {
    deps.progress(result);
    try {
      const applied = await applyStripeEvent(deps, event);
      result.stripeEvents++;
      if (applied?.outcome.startsWith('ignored')) deps.warn('Stripe event changed nothing', { accountId: event.accountId, eventId: event.eventId, type: applied.type, outcome: applied.outcome });
    } catch (error) {
      result.failed++;
      const givenUp = await giveUpWhenStale(db, event, error, now);
      deps.warn(givenUp ? 'Stripe event given up after failing for 3 days' : 'Stripe event not applied; the next sweep retries it', {
        accountId: event.accountId,
        eventId: event.eventId,
        error: String(error),
      });
    }
  }
  result.more = result.failed === 0 && (claims.length === limit || refundIds.length === limit || events.length === limit);
  return result;
}
