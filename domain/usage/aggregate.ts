import type { Aggregation } from './meters';

/**
 * A meter's usage over some span, however it was gathered (roll-up rows, raw events at a
 * period's edges, or both): the one rule that turns it into a quantity (docs/usage.md,
 * "Aggregations"). Values are scaled decimals (decimal.ts).
 */
export interface UsageAggregate {
  count: bigint;
  sum: bigint;
  max: bigint | null;
  /** The latest event's timestamp (epoch ms) and id (the tie-break), and its value. */
  latest: { at: number; eventId: string; value: bigint } | null;
  /** UNIQUE_COUNT only: the distinct values seen. */
  distinct: Set<string>;
}

export function emptyAggregate(): UsageAggregate {
  return { count: 0n, sum: 0n, max: null, latest: null, distinct: new Set() };
}

/** Whether `a` is later than `b`: by timestamp, then by event id. */
export function laterThan(a: { at: number; eventId: string }, b: { at: number; eventId: string } | null): boolean {
  return b === null || a.at > b.at || (a.at === b.at && a.eventId > b.eventId);
}

/** Folds `part` into `into` (mutating it) and returns it. */
export function mergeAggregate(into: UsageAggregate, part: UsageAggregate): UsageAggregate {
  into.count += part.count;
  into.sum += part.sum;
  if (part.max !== null && (into.max === null || part.max > into.max)) into.max = part.max;
  if (part.latest && laterThan(part.latest, into.latest)) into.latest = part.latest;
  for (const value of part.distinct) into.distinct.add(value);
  return into;
}

/** The quantity an aggregation makes of an aggregate, scaled; zero when nothing was measured. */
export function quantityOf(aggregation: Aggregation, aggregate: UsageAggregate): bigint {
  const one = 10n ** 12n;
  switch (aggregation) {
    case 'COUNT':
      return aggregate.count * one;
    case 'SUM':
      return aggregate.sum;
    case 'MAX':
      return aggregate.max ?? 0n;
    case 'UNIQUE_COUNT':
      return BigInt(aggregate.distinct.size) * one;
    case 'LATEST':
      return aggregate.latest?.value ?? 0n;
  }
}
