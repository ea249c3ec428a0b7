import { nextBoundaryAfter } from '../billing-periods';
import { requireTransition } from '../subscription-status';
import { recurringPeriod, touch, type Discount, type Step, type SubscriptionState } from './state';

export interface RestoreRequest {
  /** The new ends_at; null: open-ended. */
  expiresAt: number | null;
  /** A coupon to add to the discounts (ignored when already there). */
  discount: Discount | null;
}

/**
 * CANCELLED → ACTIVE. Billing resumes at the next boundary from the anchor after `now`: the
 * rest of the current period and the time it was cancelled are never charged.
 */
export function restore(state: SubscriptionState, request: RestoreRequest, now: number): Step {
  requireTransition('restore', state.status);
  const discounts =
    request.discount && !state.discounts.some((d) => d.coupon_id === request.discount!.coupon_id) ? [...state.discounts, request.discount] : state.discounts;
  return {
    state: touch(state, now, { ...resumedBilling(state, now, 'now'), status: 'ACTIVE', cancellation: null, discounts, endsAt: request.expiresAt, startedAt: state.startedAt ?? now }),
    events: ['SubscriptionActivated'],
  };
}

/**
 * An UNPAID subscription whose debt was settled by hand (docs/subscriptions.md): ACTIVE again.
 * The paid invoice's period still running goes on as billed; one already over resumes billing
 * at the next boundary, with nothing charged for the time it was unpaid, as a restore does.
 */
export function reactivate(state: SubscriptionState, now: number): Step {
  requireTransition('reactivate', state.status);
  const resumed = state.nextCycleAt !== null && state.nextCycleAt > now ? {} : resumedBilling(state, now, 'kept');
  return { state: touch(state, now, { ...resumed, status: 'ACTIVE' }), events: ['SubscriptionActivated'] };
}

/**
 * Billing that starts again now: the next boundary from the anchor, the recurring lines' period
 * up to it. Usage lines measure from `usageFrom`: 'kept' (reactivated: what was used while
 * UNPAID was used, and is billed) or 'now' (restored: the cancelled time was billed up to its
 * end by the last usage invoice, and nothing after it is charged).
 */
function resumedBilling(state: SubscriptionState, now: number, usageFrom: 'kept' | 'now'): Pick<SubscriptionState, 'anchorAt' | 'nextCycleAt' | 'lineItems'> {
  const anchor = state.anchorAt ?? now;
  const nextCycleAt = nextBoundaryAfter(anchor, recurringPeriod(state), now);
  // A usage line keeps measuring from where its last invoice stopped: nothing used meanwhile goes unbilled.
  const lineItems = state.lineItems.map((line) =>
    line.billingType === 'RECURRING'
      ? { ...line, periodStartAt: now, periodEndAt: nextCycleAt, updatedAt: now }
      : line.billingType === 'USAGE'
        ? { ...line, ...(usageFrom === 'now' ? { periodStartAt: now } : {}), periodEndAt: nextCycleAt, updatedAt: now }
        : line,
  );
  return { anchorAt: anchor, nextCycleAt, lineItems };
}
