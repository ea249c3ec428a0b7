import { parseRetrySchedule } from '../../services/invoices/collection';
import { isRetrySchedule, MAX_RETRIES } from '../../domain/dunning-schedule';
import { settingsRequest } from '../../api/subscriptions/schemas';

const schedules = [[1, 3, 5, 7], [0.5, 1], [400], Array.from({ length: MAX_RETRIES }, (_, i) => i + 1), Array.from({ length: MAX_RETRIES + 1 }, (_, i) => i + 1), [0, 1], [3, 3], [3, 2], [-1], [Number.NaN]];

describe('dunning retry schedule', () => {
  it('is at most 20 strictly increasing offsets above 0; fractions of a day allowed', () => {
    expect(schedules.map(isRetrySchedule)).toEqual([true, true, true, true, false, false, false, false, false, false]);
  });

  it('the worker and subscription settings accept exactly what the rule accepts (settings: one offset at least)', () => {
    for (const days of schedules) {
      const worker = (() => {
        try {
          parseRetrySchedule(days, 'test');
          return true;
        } catch {
          return false;
        }
      })();
      expect([days, worker]).toEqual([days, isRetrySchedule(days)]);
      expect([days, settingsRequest.safeParse({ dunning_retry_schedule_days: days }).success]).toEqual([days, isRetrySchedule(days)]);
    }
    expect(settingsRequest.safeParse({ dunning_retry_schedule_days: [] }).success).toBe(false);
  });
});
