/**
 * The periods the overview reads (docs/metrics.md, "Request"), pure and in UTC: half-open
 * intervals `[from, to)` of epoch milliseconds.
 */
export interface Period {
  from: number;
  to: number;
}

const DAY_MS = 86_400_000;

/** A period may span at most this many days. */
export const MAX_PERIOD_DAYS = 366;

export const MAX_PERIOD_MS = MAX_PERIOD_DAYS * DAY_MS;

/** This calendar month: its first instant to the next month's first. */
export function currentMonth(now: number): Period {
  const date = new Date(now);
  return { from: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1), to: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) };
}

/** As long as `period`, ending where it starts. */
export function previousPeriod(period: Period): Period {
  return { from: period.from - (period.to - period.from), to: period.from };
}

/** The instant MRR is read at for a period: its end, or now when the end is still to come. */
export function periodEndSoFar(period: Period, now: number): number {
  return Math.min(period.to, now);
}

/** The UTC calendar days the period touches, each cut to the period. */
export function daysOf(period: Period): { date: string; from: number; to: number }[] {
  const days = [];
  for (let start = period.from - (period.from % DAY_MS); start < period.to; start += DAY_MS) {
    days.push({ date: new Date(start).toISOString().slice(0, 10), from: Math.max(start, period.from), to: Math.min(start + DAY_MS, period.to) });
  }
  return days;
}

/**
 * The twelve instants of the MRR history: the ends of the eleven months before the current one
 * (each the first instant of the month after it), then now.
 */
export function monthEnds(now: number): { month: string; at: number }[] {
  const date = new Date(now);
  const points = [];
  for (let back = 11; back >= 1; back--) {
    const monthStart = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - back, 1);
    points.push({ month: new Date(monthStart).toISOString().slice(0, 7), at: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - back + 1, 1) });
  }
  points.push({ month: date.toISOString().slice(0, 7), at: now });
  return points;
}

/**
 * `period` as the whole UTC days inside it (`days`, the first day's start to the start of the day
 * after the last; absent when no day fits) and the parts of a day left at its ends (`edges`): what
 * the daily roll-up answers and what is read row by row (docs/metrics.md, "Daily roll-up").
 */
export function wholeDaysOf(period: Period): { days?: Period; edges: Period[] } {
  const firstWhole = Math.ceil(period.from / DAY_MS) * DAY_MS;
  const endWhole = Math.floor(period.to / DAY_MS) * DAY_MS;
  if (firstWhole >= endWhole) return { edges: period.from < period.to ? [period] : [] };
  const edges = [
    { from: period.from, to: firstWhole },
    { from: endWhole, to: period.to },
  ].filter((edge) => edge.from < edge.to);
  return { days: { from: firstWhole, to: endWhole }, edges };
}
