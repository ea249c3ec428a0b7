import { reactivate, restore } from '../../../domain/subscriptions/restore';
import { at, refusal, subscription } from './fixtures';

const cancelled = subscription({
  status: 'CANCELLED',
  nextCycleAt: null,
  cancellation: { mode: 'IMMEDIATELY', cancelAt: at('2026-01-10T00:00:00Z'), requestedAt: at('2026-01-10T00:00:00Z'), reason: 'CANCELLATION_REQUESTED', comment: null },
});
const coupon = { coupon_id: 'cpn_1', coupon_code: 'BACK', calculation_type: 'PERCENTAGE' as const, calculation_value: 10 };

describe('restore', () => {
  it('ACTIVE again, billing from the next boundary after now; the time it was cancelled is never charged', () => {
    const now = at('2026-03-15T12:00:00Z');
    const { state, events } = restore(cancelled, { expiresAt: at('2026-12-01T00:00:00Z'), discount: coupon }, now);
    expect(events).toEqual(['SubscriptionActivated']);
    expect(state).toMatchObject({ status: 'ACTIVE', cancellation: null, endsAt: at('2026-12-01T00:00:00Z'), nextCycleAt: at('2026-04-01T00:00:00Z'), discounts: [coupon] });
    expect(state.lineItems[0]).toMatchObject({ periodStartAt: now, periodEndAt: at('2026-04-01T00:00:00Z') });
    // The coupon already there is not added twice.
    expect(restore({ ...cancelled, discounts: [coupon] }, { expiresAt: null, discount: coupon }, now).state.discounts).toEqual([coupon]);
  });

  it('refuses a subscription that is not CANCELLED', () => {
    expect(refusal(() => restore(subscription(), { expiresAt: null, discount: null }, 0)).code).toBe('INCOMPATIBLE_STATUS');
  });
});

describe('reactivate', () => {
  it('keeps a paid period still running as billed, or resumes at the next boundary once it is over', () => {
    const unpaid = subscription({ status: 'UNPAID' });
    const inside = reactivate(unpaid, at('2026-01-20T00:00:00Z'));
    expect(inside).toMatchObject({ state: { status: 'ACTIVE', nextCycleAt: at('2026-02-01T00:00:00Z') }, events: ['SubscriptionActivated'] });
    expect(inside.state.lineItems).toBe(unpaid.lineItems);

    const later = reactivate(unpaid, at('2026-02-10T00:00:00Z'));
    expect(later.state.nextCycleAt).toBe(at('2026-03-01T00:00:00Z'));
    expect(later.state.lineItems[0]).toMatchObject({ periodStartAt: at('2026-02-10T00:00:00Z'), periodEndAt: at('2026-03-01T00:00:00Z') });
  });
});
