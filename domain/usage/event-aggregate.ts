import type { UsageAggregate } from './aggregate';
import type { Contribution } from './meters';

/**
 * One measured event as an aggregate: what ingestion folds into its roll-ups, and what a read
 * folds in for the raw events at a span's edges, so both count an event alike.
 */
export function aggregateOfEvent(contribution: Contribution, at: number, eventId: string): UsageAggregate {
  const { value, distinct } = contribution;
  return { count: 1n, sum: value, max: value, latest: { at, eventId, value }, distinct: new Set(distinct === null ? [] : [distinct]) };
}
