import { emptyAggregate, mergeAggregate, type UsageAggregate } from '../../domain/usage/aggregate';
import { formatDecimal } from '../../domain/usage/decimal';
import { aggregateOfEvent } from '../../domain/usage/event-aggregate';
import { contributionOf, isRefusal, versionAt, type Aggregation, type MeterDefinition } from '../../domain/usage/meters';
import type { Database } from '../../prisma/client';
import type { MeterWithVersions } from '../../services/usage/meter-definitions';
import { ALL_GROUPS } from '../../services/usage/usage-over';

/**
 * Meters and accepted events written as ingestion writes them (docs/usage.md, "Ingestion"): each
 * event in usage_events and, for every meter of its event name that existed and was not archived
 * when it was received, measured once by the version in force at its timestamp into the minute
 * and hour roll-ups and the distinct values. Tests of reading usage use it to hold exactly what
 * they expect, without the ingestion API.
 */

export interface TestMeter extends MeterWithVersions {
  accountId: string;
  createdAt: number;
  archivedAt: number | null;
}

export interface TestEvent {
  eventId: string;
  eventName: string;
  customerId: string;
  /** Epoch ms, microseconds as a fraction. */
  timestamp: number;
  properties: Record<string, unknown>;
  /** Epoch ms. */
  receivedAt: number;
}

type Version = Omit<MeterDefinition, 'meterId' | 'eventName' | 'aggregation' | 'version'>;

export function testMeter(meter: { accountId: string; meterId: string; eventName: string; aggregation: Aggregation; createdAt: number; archivedAt?: number | null; versions: Version[] }): TestMeter {
  return {
    accountId: meter.accountId,
    meterId: meter.meterId,
    eventName: meter.eventName,
    aggregation: meter.aggregation,
    status: meter.archivedAt ? 'ARCHIVED' : 'ACTIVE',
    createdAt: meter.createdAt,
    archivedAt: meter.archivedAt ?? null,
    versions: meter.versions.map((version, index) => ({ ...version, meterId: meter.meterId, eventName: meter.eventName, aggregation: meter.aggregation, version: index + 1 })),
  };
}

export async function insertMeter(db: Database, meter: TestMeter): Promise<void> {
  const createdAt = new Date(meter.createdAt);
  await db.meter.create({
    data: {
      id: meter.meterId,
      accountId: meter.accountId,
      name: meter.meterId,
      eventName: meter.eventName,
      aggregation: meter.aggregation,
      status: meter.status,
      version: meter.versions.length,
      createdAt,
      updatedAt: createdAt,
      archivedAt: meter.archivedAt === null ? null : new Date(meter.archivedAt),
      versions: {
        create: meter.versions.map((v) => ({
          version: v.version,
          effectiveFrom: new Date(v.effectiveFrom),
          property: v.property,
          filters: v.filters as never,
          groupBy: v.groupBy,
          createdAt,
        })),
      },
    },
  });
}

/** Whether ingestion measured the event with the meter: received while the meter existed and was not archived. */
export function measures(meter: TestMeter, event: TestEvent): boolean {
  return event.eventName === meter.eventName && event.receivedAt >= meter.createdAt && (meter.archivedAt === null || event.receivedAt < meter.archivedAt);
}

/** What one event adds to a meter, as ingestion measured it; null when nothing. */
export function measured(meter: TestMeter, event: TestEvent): { groupKey: string; aggregate: UsageAggregate } | null {
  if (!measures(meter, event)) return null;
  const version = versionAt(meter.versions, event.timestamp);
  const contribution = version && contributionOf(version, event.properties);
  if (!contribution) return null;
  if (isRefusal(contribution)) throw new Error(`The test made an event ingestion refuses: ${JSON.stringify(contribution)}`);
  return { groupKey: contribution.groupKey, aggregate: aggregateOfEvent(contribution, event.timestamp, event.eventId) };
}

/** An instant of epoch ms with microseconds as a fraction (ingestion keeps the microseconds sent). */
export function isoOf(at: number): string {
  const ms = Math.floor(at);
  const micros = Math.round((at - ms) * 1000);
  return new Date(ms).toISOString().replace('Z', `${String(micros).padStart(3, '0')}Z`);
}

const text = (value: bigint | null) => (value === null ? null : formatDecimal(value));

/** Accepts `events` (new ids, for customers none of whose events were accepted before) and writes their roll-ups for `meters`. */
export async function ingest(db: Database, accountId: string, meters: readonly TestMeter[], events: readonly TestEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.$executeRawUnsafe(
    `INSERT INTO usage_events (account_id, event_id, event_name, customer_id, timestamp, properties, received_at)
     SELECT $1, e.id, e.name, e.customer, e.at::timestamptz, e.properties::jsonb, e.received::timestamptz
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS e(id, name, customer, at, properties, received)`,
    accountId,
    events.map((e) => e.eventId),
    events.map((e) => e.eventName),
    events.map((e) => e.customerId),
    events.map((e) => isoOf(e.timestamp)),
    events.map((e) => JSON.stringify(e.properties)),
    events.map((e) => new Date(e.receivedAt).toISOString()),
  );
  const rollups = new Map<string, { meterId: string; customerId: string; grain: 'm' | 'h'; bucket: number; groupKey: string; aggregate: UsageAggregate }>();
  for (const meter of meters) {
    for (const event of events) {
      const measure = measured(meter, event);
      if (!measure) continue;
      for (const [grain, unit] of [['m', 60_000], ['h', 3_600_000]] as const) {
        const bucket = Math.floor(event.timestamp / unit) * unit;
        const key = JSON.stringify([meter.meterId, event.customerId, grain, bucket, measure.groupKey]);
        const row = rollups.get(key) ?? { meterId: meter.meterId, customerId: event.customerId, grain, bucket, groupKey: measure.groupKey, aggregate: emptyAggregate() };
        mergeAggregate(row.aggregate, measure.aggregate);
        rollups.set(key, row);
      }
    }
  }
  const rows = [...rollups.values()];
  if (rows.length === 0) return;
  await db.$executeRawUnsafe(
    `INSERT INTO usage_rollups (meter_id, customer_id, grain, bucket, group_key, event_count, value_sum, value_max, latest_at, latest_event_id, latest_value)
     SELECT r.meter, r.customer, r.grain, r.bucket::timestamptz, r.group_key, r.count::bigint, r.sum::numeric, r.max::numeric, r.latest_at::timestamptz, r.latest_id, r.latest_value::numeric
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
         AS r(meter, customer, grain, bucket, group_key, count, sum, max, latest_at, latest_id, latest_value)`,
    rows.map((r) => r.meterId),
    rows.map((r) => r.customerId),
    rows.map((r) => r.grain),
    rows.map((r) => new Date(r.bucket).toISOString()),
    rows.map((r) => r.groupKey),
    rows.map((r) => r.aggregate.count.toString()),
    rows.map((r) => formatDecimal(r.aggregate.sum)),
    rows.map((r) => text(r.aggregate.max)),
    rows.map((r) => (r.aggregate.latest ? isoOf(r.aggregate.latest.at) : null)),
    rows.map((r) => r.aggregate.latest?.eventId ?? null),
    rows.map((r) => text(r.aggregate.latest?.value ?? null)),
  );
  const distinct = rows.filter((r) => r.grain === 'm').flatMap((r) => [...r.aggregate.distinct].map((value) => ({ ...r, value })));
  if (distinct.length === 0) return;
  await db.$executeRawUnsafe(
    `INSERT INTO usage_distinct_values (meter_id, customer_id, bucket, group_key, value)
     SELECT d.meter, d.customer, d.bucket::timestamptz, d.group_key, d.value
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS d(meter, customer, bucket, group_key, value)`,
    distinct.map((d) => d.meterId),
    distinct.map((d) => d.customerId),
    distinct.map((d) => new Date(d.bucket).toISOString()),
    distinct.map((d) => d.groupKey),
    distinct.map((d) => d.value),
  );
}

/** The naive answer: every event measured with the meter, of the customer, timestamped in [from, to), folded by group. */
export function naiveUsage(meter: TestMeter, events: readonly TestEvent[], span: { customerId: string; from: number; to: number; groupBy: boolean }): Map<string, UsageAggregate> {
  const result = new Map<string, UsageAggregate>();
  if (!span.groupBy) result.set(ALL_GROUPS, emptyAggregate());
  for (const event of events) {
    if (event.customerId !== span.customerId || event.timestamp < span.from || event.timestamp >= span.to) continue;
    const measure = measured(meter, event);
    if (!measure) continue;
    const key = span.groupBy ? measure.groupKey : ALL_GROUPS;
    result.set(key, mergeAggregate(result.get(key) ?? emptyAggregate(), measure.aggregate));
  }
  return result;
}

/** An aggregate map as plain, comparable data. */
export function plain(usage: Map<string, UsageAggregate>) {
  return Object.fromEntries(
    [...usage.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, a]) => [
        key,
        { count: a.count.toString(), sum: formatDecimal(a.sum), max: text(a.max), latest: a.latest && { ...a.latest, value: formatDecimal(a.latest.value) }, distinct: [...a.distinct].sort() },
      ]),
  );
}
