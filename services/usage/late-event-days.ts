import { DEFAULT_LATE_EVENT_DAYS } from '../../domain/usage/ingestion-window';

/**
 * USAGE_LATE_EVENT_DAYS (docs/configuration.md): how far back an event's timestamp may be. Read
 * by ingestion, which refuses older events, and by billing, which re-measures no period that
 * ended before it, since nothing can be added to those.
 */
export function lateEventDays(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.USAGE_LATE_EVENT_DAYS;
  if (raw === undefined || raw === '') return DEFAULT_LATE_EVENT_DAYS;
  const days = Number(raw);
  if (!Number.isInteger(days) || days < 1 || days > 400) throw new Error(`USAGE_LATE_EVENT_DAYS must be a whole number of days from 1 to 400, not ${raw}.`);
  return days;
}
