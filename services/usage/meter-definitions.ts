import type { Aggregation, MeterDefinition, MeterFilter } from '../../domain/usage/meters';

/** Anything that runs a raw query: the Prisma client or a transaction. */
interface Queryable {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/** A meter with every version of its definition, oldest first. */
export interface MeterWithVersions {
  meterId: string;
  eventName: string;
  aggregation: Aggregation;
  status: 'ACTIVE' | 'ARCHIVED';
  versions: MeterDefinition[];
}

interface VersionRow {
  meterId: string;
  eventName: string;
  aggregation: Aggregation;
  status: 'ACTIVE' | 'ARCHIVED';
  version: number;
  effectiveFrom: Date;
  property: string | null;
  filters: MeterFilter[];
  groupBy: string[] | null;
}

const SELECT_VERSIONS = `SELECT m.id AS "meterId", m.event_name AS "eventName", m.aggregation, m.status, v.version,
         v.effective_from AS "effectiveFrom", v.property, v.filters, v.group_by AS "groupBy"
    FROM meters m JOIN meter_versions v ON v.meter_id = m.id`;

function group(rows: VersionRow[]): MeterWithVersions[] {
  const meters = new Map<string, MeterWithVersions>();
  for (const row of rows) {
    let meter = meters.get(row.meterId);
    if (!meter) {
      meter = { meterId: row.meterId, eventName: row.eventName, aggregation: row.aggregation, status: row.status, versions: [] };
      meters.set(row.meterId, meter);
    }
    meter.versions.push({
      meterId: row.meterId,
      eventName: row.eventName,
      aggregation: row.aggregation,
      version: row.version,
      effectiveFrom: row.effectiveFrom.getTime(),
      property: row.property,
      filters: row.filters,
      groupBy: row.groupBy ?? [],
    });
  }
  return [...meters.values()];
}

/** The account's ACTIVE meters of the given event names, each with its versions in order: what ingestion measures with. */
export async function activeMetersOf(db: Queryable, accountId: string, eventNames: readonly string[]): Promise<MeterWithVersions[]> {
  const rows = await db.$queryRawUnsafe<VersionRow[]>(
    `${SELECT_VERSIONS} WHERE m.account_id = $1 AND m.event_name = ANY($2::text[]) AND m.status = 'ACTIVE' ORDER BY m.id, v.version`,
    accountId,
    eventNames,
  );
  return group(rows);
}

/** Every ACTIVE meter of the account with its versions in order: what ingestion's meter cache holds (services/usage/meter-cache.ts). */
export async function allActiveMetersOf(db: Queryable, accountId: string): Promise<MeterWithVersions[]> {
  const rows = await db.$queryRawUnsafe<VersionRow[]>(`${SELECT_VERSIONS} WHERE m.account_id = $1 AND m.status = 'ACTIVE' ORDER BY m.id, v.version`, accountId);
  return group(rows);
}

/** One meter of the account with its versions (archived or not), or null. */
export async function meterWithVersions(db: Queryable, accountId: string, meterId: string): Promise<MeterWithVersions | null> {
  const rows = await db.$queryRawUnsafe<VersionRow[]>(`${SELECT_VERSIONS} WHERE m.account_id = $1 AND m.id = $2 ORDER BY v.version`, accountId, meterId);
  return group(rows)[0] ?? null;
}
