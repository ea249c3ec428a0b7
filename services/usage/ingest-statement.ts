import type { Database, Prisma } from '../../prisma/client';
import { writeRows, sqlStatement } from '../../prisma/statements';
import { meterStampSql } from './meter-stamp';

/**
 * One batch's accepted events and everything they add, in one statement, so they commit together
 * (docs/usage.md, "Ingestion"): a crash leaves either the events and their roll-ups or neither.
 *
 * Planned for each batch (prisma/statements.ts): prepared once, its generic plan joined a batch's
 * events to the inserted ones in a nested loop, 1,000 × 1,000 comparisons.
 *
 * - `fresh`: the account's meters still have the stamp the batch was measured with; otherwise
 *   nothing is written and the caller measures again with the meters read anew.
 * - `known`: the batch's customers the caller may reach (customers/get's rule: the account's, in
 *   the scope's channels when it has any).
 * - `inserted`: the events of known customers, in event id order (two batches sharing ids wait
 *   on each other in one order, never in a cycle). `ON CONFLICT DO NOTHING` on the primary key is
 *   the dedupe: a concurrent batch with the same id waits for the first to commit, then skips it.
 * - Only the events this statement inserted roll up: their contributions, measured by the caller
 *   for the meter version in force at each timestamp, are joined to the RETURNING rows. The
 *   roll-ups of both grains are upserted in key order (no deadlock between batches), UNIQUE_COUNT
 *   values per minute beside them. LATEST is the latest by (timestamp, event id), as
 *   domain/usage/aggregate.ts `laterThan` compares them (event ids bytewise: COLLATE "C").
 */
export const ingestUsageEventsStatement = sqlStatement(
  'usage.ingest',
  `WITH fresh AS (
     SELECT (${meterStampSql('$1')}) = $2 AS ok
   ),
   known AS (
     SELECT id FROM customers
      WHERE account_id = $1 AND id = ANY($3::text[]) AND ($4::text[] IS NULL OR channel_id = ANY($4::text[]))
   ),
   candidates AS (
     SELECT e.ord, e.event_id, e.event_name, e.customer_id, e.ts, e.properties
       FROM unnest($5::int[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::jsonb[])
            AS e(ord, event_id, event_name, customer_id, ts, properties)
      WHERE (SELECT ok FROM fresh) AND e.customer_id IN (SELECT id FROM known)
   ),
   inserted AS (
     INSERT INTO usage_events (account_id, event_id, event_name, customer_id, "timestamp", properties, received_at)
     SELECT $1, event_id, event_name, customer_id, ts, properties, statement_timestamp() FROM candidates ORDER BY event_id
     ON CONFLICT (account_id, event_id) DO NOTHING
     RETURNING event_id
   ),
   accepted AS (
     SELECT c.ord, c.event_id, c.customer_id, c.ts FROM candidates c JOIN inserted i ON i.event_id = c.event_id
   ),
   contributions AS (
     SELECT a.event_id, a.customer_id, a.ts, m.meter_id, m.group_key, m.value, m.distinct_value
       FROM unnest($11::int[], $12::text[], $13::text[], $14::numeric[], $15::text[]) AS m(ord, meter_id, group_key, value, distinct_value)
       JOIN accepted a ON a.ord = m.ord
   ),
   buckets AS (
     SELECT c.meter_id, c.customer_id, g.grain, date_trunc(g.unit, c.ts, 'UTC') AS bucket, c.group_key,
            count(*) AS event_count, sum(c.value) AS value_sum, max(c.value) AS value_max,
            max(c.ts) AS latest_at,
            (array_agg(c.event_id ORDER BY c.ts DESC, c.event_id COLLATE "C" DESC))[1] AS latest_event_id,
            (array_agg(c.value ORDER BY c.ts DESC, c.event_id COLLATE "C" DESC))[1] AS latest_value
       FROM contributions c CROSS JOIN (VALUES ('m', 'minute'), ('h', 'hour')) AS g(grain, unit)
      GROUP BY c.meter_id, c.customer_id, g.grain, g.unit, c.group_key, date_trunc(g.unit, c.ts, 'UTC')
   ),
   rolled AS (
     INSERT INTO usage_rollups AS r
            (meter_id, customer_id, grain, bucket, group_key, event_count, value_sum, value_max, latest_at, latest_event_id, latest_value)
     SELECT meter_id, customer_id, grain, bucket, group_key, event_count, value_sum, value_max, latest_at, latest_event_id, latest_value
       FROM buckets ORDER BY meter_id, customer_id, grain, bucket, group_key
     ON CONFLICT (meter_id, customer_id, grain, bucket, group_key) DO UPDATE SET
       event_count = r.event_count + excluded.event_count,
       value_sum = r.value_sum + excluded.value_sum,
       value_max = greatest(r.value_max, excluded.value_max),
       latest_at = CASE WHEN r.latest_at IS NULL OR (excluded.latest_at, excluded.latest_event_id COLLATE "C") > (r.latest_at, r.latest_event_id COLLATE "C")
                        THEN excluded.latest_at ELSE r.latest_at END,
       latest_event_id = CASE WHEN r.latest_at IS NULL OR (excluded.latest_at, excluded.latest_event_id COLLATE "C") > (r.latest_at, r.latest_event_id COLLATE "C")
                        THEN excluded.latest_event_id ELSE r.latest_event_id END,
       latest_value = CASE WHEN r.latest_at IS NULL OR (excluded.latest_at, excluded.latest_event_id COLLATE "C") > (r.latest_at, r.latest_event_id COLLATE "C")
                        THEN excluded.latest_value ELSE r.latest_value END
     RETURNING 1
   ),
   distinct_values AS (
     INSERT INTO usage_distinct_values (meter_id, customer_id, bucket, group_key, value)
     SELECT DISTINCT meter_id, customer_id, date_trunc('minute', ts, 'UTC'), group_key, distinct_value
       FROM contributions WHERE distinct_value IS NOT NULL
      ORDER BY 1, 2, 3, 4, 5
     ON CONFLICT DO NOTHING
     RETURNING 1
   )
   SELECT (SELECT ok FROM fresh) AS fresh,
          (SELECT coalesce(json_agg(id), '[]') FROM known) AS known,
          (SELECT coalesce(json_agg(ord), '[]') FROM accepted) AS accepted`,
  { planEachCall: true },
);

/** The candidate events, in parallel arrays (one entry per event). */
export interface EventColumns {
  ord: number[];
  eventId: string[];
  eventName: string[];
  customerId: string[];
  /** As sent (section 1 date-times, microseconds kept). */
  timestamp: string[];
  /** JSON text. */
  properties: string[];
}

/** What the events add to meters, in parallel arrays: `ord` names the event. */
export interface ContributionColumns {
  ord: number[];
  meterId: string[];
  groupKey: string[];
  /** Decimal text. */
  value: string[];
  distinct: (string | null)[];
}

export interface StatementOutcome {
  /** False: the meters changed since `stamp`; nothing was written. */
  fresh: boolean;
  /** The customers of the batch the caller may reach. */
  known: string[];
  /** The `ord` of every event this statement inserted. */
  accepted: number[];
}

export async function runIngestStatement(
  db: Database | Prisma.TransactionClient,
  input: { accountId: string; stamp: string; customerIds: string[]; channels: readonly string[] | null; events: EventColumns; contributions: ContributionColumns },
): Promise<StatementOutcome> {
  const { events, contributions } = input;
  const [row] = await writeRows<StatementOutcome>(db, ingestUsageEventsStatement, [
    input.accountId,
    input.stamp,
    input.customerIds,
    input.channels,
    events.ord,
    events.eventId,
    events.eventName,
    events.customerId,
    events.timestamp,
    events.properties,
    contributions.ord,
    contributions.meterId,
    contributions.groupKey,
    contributions.value,
    contributions.distinct,
  ]);
  return row!;
}
