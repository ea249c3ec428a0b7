import { boundary, periodIndexAt, type BillingPeriod } from '../billing-periods';
import type { Range } from './span-parts';

/** What of a subscription line tells its billing periods (domain/subscriptions/state.ts `Line`). */
export interface PeriodicLine {
  /** The start of its first billed period; null before it was first billed. */
  startedAt: number | null;
  /** The current period. */
  periodStartAt: number;
  periodEndAt: number | null;
  billingPeriod: BillingPeriod;
}

/**
 * A line's billing periods from its first to the current one that overlap [from, to), oldest
 * first (usage/summary's PERIOD window): the cycle boundaries of the subscription's anchor
 * (domain/billing-periods.ts) from `startedAt` up to the current period, which is the line's own
 * [periodStartAt, periodEndAt). Only the count when there are more than `max`, so an answer
 * that would be too long costs nothing to refuse.
 */
export function linePeriods(line: PeriodicLine, anchor: number, within: { from?: number; to?: number }, max: number): { count: number; periods: Range[] } {
  const from = within.from ?? -Infinity;
  const to = within.to ?? Infinity;
  const current = line.periodEndAt !== null && line.periodStartAt < line.periodEndAt ? { from: line.periodStartAt, to: line.periodEndAt } : null;
  const currentCounts = current !== null && current.from < to && current.to > from;
  const pastFrom = Math.max(line.startedAt ?? line.periodStartAt, from);
  const pastTo = Math.min(line.periodStartAt, to);
  const first = pastFrom < pastTo ? periodIndexAt(anchor, line.billingPeriod, pastFrom) : 0;
  // The period of the last millisecond before pastTo (which may carry microseconds as a fraction).
  const last = pastFrom < pastTo ? periodIndexAt(anchor, line.billingPeriod, Math.ceil(pastTo) - 1) : -1;
  const count = last - first + 1 + (currentCounts ? 1 : 0);
  if (count > max) return { count, periods: [] };
  const periods: Range[] = [];
  for (let k = first; k <= last; k++) {
    periods.push({ from: Math.max(boundary(anchor, line.billingPeriod, k), line.startedAt!), to: Math.min(boundary(anchor, line.billingPeriod, k + 1), line.periodStartAt) });
  }
  if (currentCounts) periods.push(current);
  return { count, periods };
}
