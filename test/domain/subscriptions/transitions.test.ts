import { expire } from '../../../domain/subscriptions/expiry';
import { dunningStarted, paymentSettled } from '../../../domain/subscriptions/payment-outcome';
import { currentPeriodEnd, nextDue, servedNextBillingAt } from '../../../domain/subscriptions/schedule';
import { startTrial } from '../../../domain/subscriptions/trial';
import { at, refusal, subscription } from './fixtures';

const NOW = at('2026-01-10T00:00:00Z');
const freeTrial = { type: 'FREE' as const, amount: 0, startAt: at('2026-01-05T00:00:00Z'), endAt: at('2026-01-19T00:00:00Z'), periodConfig: null };
const paidTrial = { ...freeTrial, type: 'PAID' as const, amount: 500 };

describe('payment outcomes', () => {
  it('paid: PENDING becomes ACTIVE, an ACTIVE cycle is renewed, a running PAID trial is TRIALING', () => {
    expect(paymentSettled(subscription({ status: 'PENDING' }), 'cycle', true, NOW)).toMatchObject({ state: { status: 'ACTIVE', version: 4, updatedAt: NOW }, events: ['SubscriptionActivated'] });
    expect(paymentSettled(subscription(), 'cycle', true, NOW)).toMatchObject({ state: { status: 'ACTIVE', version: 4 }, events: ['SubscriptionRenewed'] });
    expect(paymentSettled(subscription({ status: 'PENDING', trial: paidTrial }), 'trial', true, NOW)).toMatchObject({ state: { status: 'TRIALING' }, events: ['SubscriptionTrialActivated'] });
    expect(paymentSettled(subscription({ status: 'REDEMPTION', trial: paidTrial }), 'trial', true, at('2026-01-20T00:00:00Z'))).toMatchObject({ state: { status: 'ACTIVE' }, events: ['SubscriptionActivated'] });
  });

  it('a paid proration of an ACTIVE subscription changes nothing, not even the version', () => {
    const state = subscription();
    expect(paymentSettled(state, 'proration', true, NOW)).toEqual({ state, events: [] });
  });

  it('not paid: UNPAID; dunning: REDEMPTION', () => {
    expect(paymentSettled(subscription({ status: 'REDEMPTION' }), 'cycle', false, NOW)).toMatchObject({ state: { status: 'UNPAID' }, events: ['SubscriptionUnpaid'] });
    expect(dunningStarted(subscription(), NOW)).toMatchObject({ state: { status: 'REDEMPTION', version: 4 }, events: ['SubscriptionRedemptionStarted'] });
    expect(refusal(() => dunningStarted(subscription({ status: 'TRIALING' }), NOW))).toMatchObject({ code: 'INCOMPATIBLE_STATUS', context: { status: 'TRIALING' } });
    expect(refusal(() => paymentSettled(subscription({ status: 'CANCELLED' }), 'cycle', true, NOW)).code).toBe('INCOMPATIBLE_STATUS');
  });
});

describe('timed steps', () => {
  it('startTrial: CREATED becomes TRIALING, started when it was scheduled to', () => {
    const state = subscription({ status: 'CREATED', startedAt: null, startScheduledAt: at('2026-01-05T00:00:00Z'), trial: freeTrial });
    expect(startTrial(state, at('2026-01-05T00:00:03Z'))).toMatchObject({
      state: { status: 'TRIALING', startedAt: at('2026-01-05T00:00:00Z'), startScheduledAt: null, updatedAt: at('2026-01-05T00:00:03Z') },
      events: ['SubscriptionTrialActivated'],
    });
    expect(refusal(() => startTrial(subscription(), NOW)).code).toBe('INCOMPATIBLE_STATUS');
  });

  it('expire: EXPIRED with no next cycle, from any live status but not a terminal one', () => {
    expect(expire(subscription({ status: 'UNPAID' }), NOW)).toMatchObject({ state: { status: 'EXPIRED', nextCycleAt: null }, events: ['SubscriptionExpired'] });
    expect(refusal(() => expire(subscription({ status: 'CANCELLED' }), NOW)).code).toBe('INCOMPATIBLE_STATUS');
  });
});

describe('schedule', () => {
  it('nextDue: the earliest of cancel, expire, trial start and bill; ties in that order; nothing once terminal', () => {
    const feb = at('2026-02-01T00:00:00Z');
    expect(nextDue(subscription())).toEqual({ kind: 'bill', at: feb });
    expect(nextDue(subscription({ endsAt: feb }))).toEqual({ kind: 'expire', at: feb });
    const cancellation = { mode: 'PERIOD_END' as const, cancelAt: feb, requestedAt: NOW, reason: 'CANCELLATION_REQUESTED' as const, comment: null };
    expect(nextDue(subscription({ endsAt: feb, cancellation }))).toEqual({ kind: 'cancel', at: feb });
    expect(nextDue(subscription({ status: 'CREATED', trial: freeTrial, startScheduledAt: at('2026-01-05T00:00:00Z'), nextCycleAt: at('2026-01-19T00:00:00Z') }))).toEqual({
      kind: 'startTrial',
      at: at('2026-01-05T00:00:00Z'),
    });
    expect(nextDue(subscription({ status: 'UNPAID' }))).toBeNull();
    expect(nextDue(subscription({ status: 'EXPIRED' }))).toBeNull();
  });

  it('servedNextBillingAt hides a next cycle that cancellation, ends_at or the status rules out', () => {
    const feb = at('2026-02-01T00:00:00Z');
    expect(servedNextBillingAt(subscription())).toBe(feb);
    expect(servedNextBillingAt(subscription({ endsAt: feb }))).toBeNull();
    expect(servedNextBillingAt(subscription({ cancellation: { mode: 'PERIOD_END', cancelAt: feb, requestedAt: NOW, reason: 'CANCELLATION_REQUESTED', comment: null } }))).toBeNull();
    expect(servedNextBillingAt(subscription({ status: 'UNPAID' }))).toBeNull();
  });

  it('currentPeriodEnd: the trial end while TRIALING (null when open-ended), else the billed period end', () => {
    expect(currentPeriodEnd(subscription())).toBe(at('2026-02-01T00:00:00Z'));
    expect(currentPeriodEnd(subscription({ status: 'TRIALING', trial: freeTrial }))).toBe(at('2026-01-19T00:00:00Z'));
    expect(currentPeriodEnd(subscription({ status: 'TRIALING', trial: { ...freeTrial, endAt: null } }))).toBeNull();
  });
});
