import { formatDateTime } from '../../../../domain/datetime';
import type { Period } from '../../api/metrics';

/** The periods the Overview offers; every boundary is a UTC midnight, as the API's days are UTC days. */
export type PeriodChoice = 'THIS_MONTH' | 'PREVIOUS_MONTH' | 'LAST_30_DAYS' | 'LAST_90_DAYS' | 'CUSTOM';

export const PERIOD_CHOICES: { value: PeriodChoice; label: string }[] = [
  { value: 'THIS_MONTH', label: 'This month' },
  { value: 'PREVIOUS_MONTH', label: 'Previous month' },
  { value: 'LAST_30_DAYS', label: 'Last 30 days' },
  { value: 'LAST_90_DAYS', label: 'Last 90 days' },
  { value: 'CUSTOM', label: 'From … to …' },
];


const DAY_MS = 86_400_000;

/** `2026-11-05` (a date input's value) → that UTC midnight, or undefined for anything else. */
function utcMidnight(date: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The period a choice means at `now`. The last N days include today, so they end at tomorrow's
 * midnight; a custom period includes its last day. Undefined while a custom period is incomplete
 * or ends before it starts.
 */
export function periodOf(choice: PeriodChoice, now: number, custom: { from: string; to: string }): Period | undefined {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const date = new Date(now);
  const month = (offset: number) => Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1);
  const span = (from: number, to: number): Period => ({ from: formatDateTime(new Date(from)), to: formatDateTime(new Date(to)) });
  switch (choice) {
    case 'THIS_MONTH':
      return span(month(0), month(1));
    case 'PREVIOUS_MONTH':
      return span(month(-1), month(0));
    case 'LAST_30_DAYS':
      return span(today - 29 * DAY_MS, today + DAY_MS);
    case 'LAST_90_DAYS':
      return span(today - 89 * DAY_MS, today + DAY_MS);
    case 'CUSTOM': {
      const from = utcMidnight(custom.from);
      const to = utcMidnight(custom.to);
      if (from === undefined || to === undefined || to < from) return undefined;
      return span(from, to + DAY_MS);
    }
  }
}

/** `[from, to)` in words, by the UTC days it covers: `2026-11-01 to 2026-11-30 (UTC)`. */
export function periodWords(period: Period): string {
  const first = period.from.slice(0, 10);
  const lastMs = Date.parse(period.to) - 1;
  const last = new Date(lastMs).toISOString().slice(0, 10);
  return first === last ? `${first} (UTC)` : `${first} to ${last} (UTC)`;
}
