/**
 * Which event timestamps ingestion accepts (docs/usage.md, "Ingestion"): up to
 * MAX_FUTURE_SKEW_MS ahead of the server's clock (clients' clocks drift), and back to the late
 * window. A meter change takes effect no earlier than the skew ahead, so no event already
 * accepted was measured by a definition that was not yet in force for it.
 */
export const MAX_FUTURE_SKEW_MS = 5 * 60 * 1000;

/** Default of USAGE_LATE_EVENT_DAYS: how old an event's timestamp may be and still be accepted (and billed, late, as an adjustment). */
export const DEFAULT_LATE_EVENT_DAYS = 35;

/** Default grace after a cycle's end before its usage is invoiced (the subscription setting `usage_grace_minutes`). */
export const DEFAULT_USAGE_GRACE_MINUTES = 60;

export function acceptedTimestampRange(now: number, lateEventDays: number): { earliest: number; latest: number } {
  return { earliest: now - lateEventDays * 24 * 60 * 60 * 1000, latest: now + MAX_FUTURE_SKEW_MS };
}
