import { CANCELLATION_REASONS, SUBSCRIPTION_TRANSITIONS } from '../../../domain/subscription-status';
import { statusChangeCause, STATUS_CHANGE_CAUSES } from '../../../domain/subscriptions/status-change-cause';

describe('statusChangeCause (docs/subscriptions.md, "Status history")', () => {
  const moves = Object.entries(SUBSCRIPTION_TRANSITIONS).flatMap(([name, rule]) =>
    rule.from.flatMap((from) => rule.to.filter((to) => to !== from).map((to) => ({ name, from, to }))),
  );

  it('names a cause for every status change the state machine allows', () => {
    for (const { name, from, to } of moves) {
      const cancellation = to === 'CANCELLED' ? { mode: 'IMMEDIATELY' as const, cancelAt: 0, requestedAt: 0, reason: 'CANCELLATION_REQUESTED' as const, comment: null } : null;
      const cause = statusChangeCause(from, { status: to, cancellation });
      expect([name, from, to, STATUS_CHANGE_CAUSES.includes(cause!)]).toEqual([name, from, to, true]);
    }
  });

  it('tells apart the changes into the same status by where they came from', () => {
    const none = { cancellation: null };
    expect(statusChangeCause(null, { status: 'PENDING', ...none })).toBe('CREATED');
    expect(statusChangeCause('CREATED', { status: 'PENDING', ...none })).toBe('STARTED');
    expect(statusChangeCause('TRIALING', { status: 'PENDING', ...none })).toBe('TRIAL_ENDED');
    expect(statusChangeCause('CREATED', { status: 'TRIALING', ...none })).toBe('TRIAL_STARTED');
    expect(statusChangeCause('PENDING', { status: 'TRIALING', ...none })).toBe('PAYMENT_SUCCEEDED');
    expect(statusChangeCause('REDEMPTION', { status: 'ACTIVE', ...none })).toBe('PAYMENT_SUCCEEDED');
    expect(statusChangeCause('UNPAID', { status: 'ACTIVE', ...none })).toBe('INVOICES_SETTLED');
    expect(statusChangeCause('CANCELLED', { status: 'ACTIVE', ...none })).toBe('RESTORED');
  });

  it('a cancellation carries its reason', () => {
    for (const reason of CANCELLATION_REASONS) {
      expect(statusChangeCause('ACTIVE', { status: 'CANCELLED', cancellation: { mode: 'PERIOD_END', cancelAt: 0, requestedAt: 0, reason, comment: null } })).toBe(reason);
    }
  });
});
