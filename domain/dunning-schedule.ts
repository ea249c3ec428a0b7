/** Retries of one invoice at most: bounds the collection workflow's history (docs/dunning.md). */
export const MAX_RETRIES = 20;

export const RETRY_SCHEDULE_RULE = `At most ${MAX_RETRIES} strictly increasing day offsets, each above 0; fractions of a day allowed.`;

/**
 * A dunning retry schedule (docs/dunning.md, "Schedule"): offsets in days from the first failed
 * charge. Fractions of a day are allowed wherever the schedule comes from, a subscription's
 * settings as much as the worker's DUNNING_RETRY_SCHEDULE_DAYS (documented as "0.5,1").
 */
export function isRetrySchedule(days: readonly number[]): boolean {
  return days.length <= MAX_RETRIES && days.every((d, i) => Number.isFinite(d) && d > 0 && (i === 0 || d > days[i - 1]!));
}
