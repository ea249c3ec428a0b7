import type { UsageAggregate } from '../../domain/usage/aggregate';

/**
 * The select list that folds usage_rollups rows into one aggregate per group of a query, and the
 * aggregate it reads back. Values are scaled to 10^-12 integers in the database, so none passes
 * through a float. Timestamps are epoch ms with their microseconds as a fraction, so the latest
 * event is the one ingestion's roll-ups take (they keep the microseconds an event was sent with):
 * by timestamp, then by event id compared bytewise, as laterThan compares them.
 */
const scaled = (expression: string) => `(${expression} * 1000000000000)::numeric(1000, 0)::text`;
const latest = (column: string) => `(array_agg(${column} ORDER BY latest_at DESC, latest_event_id COLLATE "C" DESC) FILTER (WHERE latest_at IS NOT NULL))[1]`;

/** `latestWhen`: a condition on the group (its meter) under which the latest event is read at all; the rows of other meters then cost nothing to read. */
export function rollupAggregateColumns(latestWhen = 'true'): string {
  const ifLatest = (expression: string) => `CASE WHEN ${latestWhen} THEN ${expression} END`;
  return `sum(event_count)::text AS "count", ${scaled('sum(value_sum)')} AS "sum", ${scaled('max(value_max)')} AS "max",
          ${ifLatest(`(extract(epoch FROM ${latest('latest_at')}) * 1000)::text`)} AS "latestAt", ${ifLatest(latest('latest_event_id'))} AS "latestEventId",
          ${ifLatest(scaled(latest('latest_value')))} AS "latestValue"`;
}

export interface RollupAggregateRow {
  count: string;
  sum: string;
  max: string | null;
  latestAt: string | null;
  latestEventId: string | null;
  latestValue: string | null;
}

export function aggregateOfRollups(row: RollupAggregateRow): UsageAggregate {
  return {
    count: BigInt(row.count),
    sum: BigInt(row.sum),
    max: row.max === null ? null : BigInt(row.max),
    latest: row.latestAt === null ? null : { at: Number(row.latestAt), eventId: row.latestEventId!, value: BigInt(row.latestValue!) },
    distinct: new Set(),
  };
}
