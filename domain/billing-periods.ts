import { divideHalfUp } from './rounding';

/**
 * Billing-cycle arithmetic, pure and in UTC (docs/subscriptions.md, "Billing cycles").
 *
 * Boundary k of a cycle is always computed from the anchor, `anchor + k periods`, never from the
 * previous boundary: a month-based cycle anchored on the 31st bills on the last day of a shorter
 * month and returns to the 31st in the next month that has one, so the drift of repeated
 * "add one month" can never accumulate. Workflows import this module, so it reads no clock.
 */
export const TIME_UNITS = ['MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

export interface BillingPeriod {
  value: number;
  unit: TimeUnit;
}

const FIXED_MS: Partial<Record<TimeUnit, number>> = {
  MINUTE: 60_000,
  HOUR: 3_600_000,
  DAY: 86_400_000,
  WEEK: 604_800_000,
};
const MONTHS: Partial<Record<TimeUnit, number>> = { MONTH: 1, QUARTER: 3, YEAR: 12 };

function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/** `at` moved by `months` calendar months, the day of month clamped to the target month's last day. */
export function addMonthsClamped(at: number, months: number): number {
  const date = new Date(at);
  const total = date.getUTCFullYear() * 12 + date.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(date.getUTCDate(), daysInMonth(year, month));
  return Date.UTC(year, month, day, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds());
}

/** Boundary `k` (any integer, negative before the anchor) of the cycle anchored at `anchor`. */
export function boundary(anchor: number, period: BillingPeriod, k: number): number {
  const fixed = FIXED_MS[period.unit];
  if (fixed !== undefined) return anchor + k * period.value * fixed;
  return addMonthsClamped(anchor, k * period.value * MONTHS[period.unit]!);
}

/** The largest k whose boundary is at or before `at`. */
export function periodIndexAt(anchor: number, period: BillingPeriod, at: number): number {
  const fixed = FIXED_MS[period.unit];
  if (fixed !== undefined) return Math.floor((at - anchor) / (period.value * fixed));
  const a = new Date(anchor);
  const t = new Date(at);
  const monthsApart = (t.getUTCFullYear() - a.getUTCFullYear()) * 12 + (t.getUTCMonth() - a.getUTCMonth());
  let k = Math.floor(monthsApart / (period.value * MONTHS[period.unit]!));
  // The estimate is off by at most one either way (day and time of month decide).
  while (boundary(anchor, period, k) > at) k--;
  while (boundary(anchor, period, k + 1) <= at) k++;
  return k;
}

/** The full cycle period [start, end) that contains `at`. */
export function periodContaining(anchor: number, period: BillingPeriod, at: number): { start: number; end: number } {
  const k = periodIndexAt(anchor, period, at);
  return { start: boundary(anchor, period, k), end: boundary(anchor, period, k + 1) };
}

/** The first boundary strictly after `at`. */
export function nextBoundaryAfter(anchor: number, period: BillingPeriod, at: number): number {
  return boundary(anchor, period, periodIndexAt(anchor, period, at) + 1);
}

/**
 * `amount × part / whole`, rounded half up to a whole minor unit, exactly (BigInt). Durations
 * are counted in whole seconds, as docs/subscriptions.md says for proration. `amount` ≥ 0.
 */
export function prorate(amount: number, partMs: number, wholeMs: number): number {
  const part = BigInt(Math.max(0, Math.floor(partMs / 1000)));
  const whole = BigInt(Math.floor(wholeMs / 1000));
  if (whole === 0n || part >= whole) return amount;
  return Number(divideHalfUp(BigInt(amount) * part, whole));
}

export function isBillingPeriod(value: unknown): value is BillingPeriod {
  const period = value as BillingPeriod | null;
  return !!period && Number.isInteger(period.value) && period.value > 0 && (TIME_UNITS as readonly string[]).includes(period.unit);
}

export function samePeriod(a: BillingPeriod, b: BillingPeriod): boolean {
  return a.value === b.value && a.unit === b.unit;
}

/** A trial or other duration given as `{value, unit}`, added to `at` with the same month-end rule. */
export function addPeriod(at: number, period: BillingPeriod): number {
  return boundary(at, period, 1);
}
