import { emptyAggregate, mergeAggregate, type UsageAggregate } from '../../domain/usage/aggregate';
import { aggregateOfEvent } from '../../domain/usage/event-aggregate';
import { contributionOf, isRefusal, versionAt } from '../../domain/usage/meters';
import { spanParts, type Range } from '../../domain/usage/span-parts';
import type { Database, Prisma } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';
import type { MeterWithVersions } from './meter-definitions';
import { aggregateOfRollups, rollupAggregateColumns, type RollupAggregateRow } from './rollup-columns';

/** The key of the one aggregate a read without group-by answers. */
export const ALL_GROUPS = '*';

export interface UsageSpan {
  accountId: string;
  meter: MeterWithVersions;
  customerId: string;
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive. */
  to: number;
  /** By the meter's group keys ('[]'-style JSON arrays); otherwise everything under ALL_GROUPS. */
  groupBy: boolean;
}

/** One span's whole hours and its edge minutes, in one statement (at most one hour range and two minute ranges). */
const rollups = sqlStatement(
  'usage.rollups_over_span',
  `SELECT group_key AS "groupKey", ${rollupAggregateColumns()}
     FROM usage_rollups
    WHERE meter_id = $1 AND customer_id = $2
      AND ((grain = 'h' AND bucket >= $3::timestamptz AND bucket < $4::timestamptz)
        OR (grain = 'm' AND ((bucket >= $5::timestamptz AND bucket < $6::timestamptz) OR (bucket >= $7::timestamptz AND bucket < $8::timestamptz))))
    GROUP BY group_key`,
);

/** A UNIQUE_COUNT meter's values over the span's whole minutes (its hours included: distinct values are kept per minute only). */
const distinctValues = sqlStatement(
  'usage.distinct_values_over_span',
  `SELECT DISTINCT group_key AS "groupKey", value
     FROM usage_distinct_values
    WHERE meter_id = $1 AND customer_id = $2 AND bucket >= $3::timestamptz AND bucket < $4::timestamptz`,
);

/**
 * The raw events of the span's sub-minute edges that ingestion measured with the meter: those
 * accepted while it existed and was not archived (docs/usage.md, "Meters").
 */
const edgeEvents = sqlStatement(
  'usage.edge_events_of_span',
  `SELECT e.event_id AS "eventId", (extract(epoch FROM e.timestamp) * 1000)::text AS "at", e.properties
     FROM usage_events e
     JOIN meters m ON m.id = $4 AND m.account_id = e.account_id
    WHERE e.account_id = $1 AND e.customer_id = $2 AND e.event_name = $3
      AND e.received_at >= m.created_at AND (m.archived_at IS NULL OR e.received_at < m.archived_at)
      AND ((e.timestamp >= $5::timestamptz AND e.timestamp < $6::timestamptz) OR (e.timestamp >= $7::timestamptz AND e.timestamp < $8::timestamptz))`,
);

interface RollupRow extends RollupAggregateRow {
  groupKey: string;
}

interface EdgeEvent {
  eventId: string;
  at: string;
  properties: Record<string, unknown>;
}

const iso = (at: number) => new Date(at).toISOString();
/** A range's bounds as parameters; an absent range as an empty one. */
const bounds = (range: Range | null | undefined) => (range ? [iso(range.from), iso(range.to)] : [iso(0), iso(0)]);

/**
 * A customer's usage of one meter over [from, to), exactly, at any millisecond boundaries: what
 * invoices bill a period by, and what usage/summary answers for a PERIOD window. Full hours come
 * from the hour roll-ups, the minutes left at the ends from the minute roll-ups, and the
 * sub-minute slices at the ends from the raw events, measured again as ingestion measured them
 * (contributionOf with the version in force at each event's timestamp). At most three reads, sent
 * together.
 */
export async function usageOver(db: Database | Prisma.TransactionClient, span: UsageSpan): Promise<Map<string, UsageAggregate>> {
  const { accountId, meter, customerId } = span;
  const parts = spanParts(span.from, span.to);
  const { wholeMinutes } = parts;
  const [rollupRows, distinctRows, events] = await Promise.all([
    wholeMinutes
      ? readRows<RollupRow>(db, rollups, [meter.meterId, customerId, ...bounds(parts.hours[0]), ...bounds(parts.minutes[0]), ...bounds(parts.minutes[1])])
      : [],
    wholeMinutes && meter.aggregation === 'UNIQUE_COUNT'
      ? readRows<{ groupKey: string; value: string }>(db, distinctValues, [meter.meterId, customerId, ...bounds(wholeMinutes)])
      : [],
    parts.raw.length > 0
      ? readRows<EdgeEvent>(db, edgeEvents, [accountId, customerId, meter.eventName, meter.meterId, ...bounds(parts.raw[0]), ...bounds(parts.raw[1])])
      : [],
  ]);

  const result = new Map<string, UsageAggregate>();
  const fold = (groupKey: string, part: UsageAggregate) => {
    const key = span.groupBy ? groupKey : ALL_GROUPS;
    const into = result.get(key);
    if (into) mergeAggregate(into, part);
    else result.set(key, mergeAggregate(emptyAggregate(), part));
  };
  if (!span.groupBy) result.set(ALL_GROUPS, emptyAggregate());
  for (const row of rollupRows) fold(row.groupKey, aggregateOfRollups(row));
  for (const row of distinctRows) fold(row.groupKey, { ...emptyAggregate(), distinct: new Set([row.value]) });
  for (const event of events) {
    const at = Number(event.at);
    const version = versionAt(meter.versions, at);
    const contribution = version && contributionOf(version, event.properties);
    // A refusal cannot come from an accepted event: ingestion refused the whole event then.
    if (contribution && !isRefusal(contribution)) fold(contribution.groupKey, aggregateOfEvent(contribution, at, event.eventId));
  }
  return result;
}
