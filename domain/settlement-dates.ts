/**
 * Calendar arithmetic of settlements and monthly statements (docs/settlements.md), in UTC on
 * `YYYY-MM-DD` strings. Pure, so workflows use it as well as activities.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** A real calendar day written `YYYY-MM-DD` (2026-02-30 is not one). */
export function isDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  // Parsed as an ISO string, not through Date.UTC, which reads years 0 to 99 as 1900 to 1999.
  const parsed = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && utcDayOf(parsed) === value;
}

/** A month written `YYYY-MM`. */
export function isMonth(value: string): boolean {
  const match = MONTH.exec(value);
  return match !== null && Number(match[2]) >= 1 && Number(match[2]) <= 12;
}

/** The UTC day `at` falls on. */
export function utcDayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Midnight UTC at the start of `day`. */
export function startOfDay(day: string): Date {
  if (!isDay(day)) throw new RangeError(`Not a day (YYYY-MM-DD): ${day}`);
  return new Date(`${day}T00:00:00.000Z`);
}

export function addDays(day: string, days: number): string {
  return utcDayOf(new Date(startOfDay(day).getTime() + days * DAY_MS));
}

/** The UTC day before the one `at` falls on: what a run at `at` settles. */
export function previousUtcDay(at: Date): string {
  return addDays(utcDayOf(at), -1);
}

/** The month before the one `at` falls on, `YYYY-MM`: what a run at `at` issues statements for. */
export function previousUtcMonth(at: Date): string {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  return month === 0 ? `${year - 1}-12` : `${year}-${String(month).padStart(2, '0')}`;
}

/** First and last day of `month` (`YYYY-MM`). */
export function monthPeriod(month: string): { from: string; to: string } {
  if (!isMonth(month)) throw new RangeError(`Not a month (YYYY-MM): ${month}`);
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, monthNumber, 0));
  return { from: `${month}-01`, to: utcDayOf(last) };
}
