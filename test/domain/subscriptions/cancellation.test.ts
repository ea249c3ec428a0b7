import { cancel, cancelScheduled, deleteCancellation } from '../../../domain/subscriptions/cancellation';
import { at, refusal, subscription } from './fixtures';

const NOW = at('2026-01-10T08:30:00Z');
const request = { reason: 'CANCELLATION_REQUESTED' as const, comment: 'moving' };

describe('cancellation', () => {
  it('IMMEDIATELY: CANCELLED now, no next cycle', () => {
    expect(cancel(subscription(), { mode: 'IMMEDIATELY', ...request }, NOW)).toEqual({
      state: expect.objectContaining({
        status: 'CANCELLED',
        nextCycleAt: null,
        version: 4,
        cancellation: { mode: 'IMMEDIATELY', cancelAt: NOW, requestedAt: NOW, reason: 'CANCELLATION_REQUESTED', comment: 'moving' },
      }),
      events: ['SubscriptionCancelled'],
    });
  });

  it('PERIOD_END: scheduled at the billed period end; the status stays', () => {
    const { state, events } = cancel(subscription(), { mode: 'PERIOD_END', ...request }, NOW);
    expect(events).toEqual(['SubscriptionScheduledForCancellation']);
    expect(state.status).toBe('ACTIVE');
    expect(state.cancellation).toEqual({ mode: 'PERIOD_END', cancelAt: at('2026-02-01T00:00:00Z'), requestedAt: NOW, reason: 'CANCELLATION_REQUESTED', comment: 'moving' });

    const due = cancelScheduled(state, at('2026-02-01T00:00:01Z'));
    expect(due.events).toEqual(['SubscriptionCancelled']);
    expect(due.state).toMatchObject({ status: 'CANCELLED', nextCycleAt: null });
    expect(due.state.cancellation).toEqual({ mode: 'PERIOD_END', cancelAt: at('2026-02-01T00:00:00Z'), requestedAt: NOW, reason: 'CANCELLATION_REQUESTED', comment: 'moving' });
  });

  it('refuses a second PERIOD_END, one with no period end, and one in a status that has no period', () => {
    const scheduled = cancel(subscription(), { mode: 'PERIOD_END', ...request }, NOW).state;
    expect(refusal(() => cancel(scheduled, { mode: 'PERIOD_END', ...request }, NOW))).toEqual({
      code: 'CANCELLATION_ALREADY_SCHEDULED',
      context: { cancel_at: '2026-02-01T00:00:00.000000Z' },
    });
    const openTrial = subscription({ status: 'TRIALING', trial: { type: 'FREE', amount: 0, startAt: NOW, endAt: null, periodConfig: null } });
    expect(refusal(() => cancel(openTrial, { mode: 'PERIOD_END', ...request }, NOW)).code).toBe('NO_PERIOD_END');
    expect(refusal(() => cancel(subscription({ status: 'CREATED' }), { mode: 'PERIOD_END', ...request }, NOW)).code).toBe('INCOMPATIBLE_STATUS');
    expect(refusal(() => cancel(subscription({ status: 'EXPIRED' }), { mode: 'IMMEDIATELY', ...request }, NOW)).code).toBe('INCOMPATIBLE_STATUS');
  });

  it('deleteCancellation removes a scheduled one and refuses when none is scheduled', () => {
    const scheduled = cancel(subscription(), { mode: 'PERIOD_END', ...request }, NOW).state;
    expect(deleteCancellation(scheduled, NOW)).toMatchObject({ state: { cancellation: null, status: 'ACTIVE', version: 5 }, events: ['SubscriptionUpdated'] });
    expect(refusal(() => deleteCancellation(subscription(), NOW))).toEqual({ code: 'CANCELLATION_NOT_SCHEDULED', context: { status: 'ACTIVE' } });
  });
});
