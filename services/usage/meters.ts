import { ApiError, type Constraints } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { definitionConstraints, earliestVersionStart, labelConstraints, sameDefinition, type MeterDefinitionInput } from '../../domain/usage/meter-rules';
import type { Aggregation, MeterFilter } from '../../domain/usage/meters';
import { formatDateTime } from '../../domain/datetime';
import { Prisma } from '../../generated/prisma/client';
import type { Database } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';
import { liveSubscriptionsBilling } from './meter-subscriptions';

export const meterInclude = { versions: { orderBy: { version: 'asc' } } } as const satisfies Prisma.MeterInclude;

export type MeterRecord = Prisma.MeterGetPayload<{ include: typeof meterInclude }>;

export type Metadata = Record<string, string | number | boolean>;

export interface NewMeter {
  name: string;
  eventName: string;
  aggregation: Aggregation;
  property: string | null;
  filters: MeterFilter[];
  groupBy: string[];
  metadata?: Metadata;
}

/** What meters/update may change: labels in place; property, filters and group-by as a new version. */
export interface MeterChanges {
  name?: string;
  /** null removes it. */
  metadata?: Metadata | null;
  property?: string;
  filters?: MeterFilter[];
  groupBy?: string[];
  /** When the new version takes effect; default the earliest allowed. */
  effectiveFrom?: Date;
}

type Db = Database | Prisma.TransactionClient;

/** Version 1 is in force for every timestamp: a new meter measures whatever is accepted once it exists. */
const FIRST_VERSION_FROM = new Date(0);

function refuseInvalid(constraints: Constraints): void {
  if (Object.keys(constraints).length > 0) throw ApiError.validation(constraints);
}

function jsonOf(value: object | null): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue);
}

/** meters/create in the caller's transaction: version 1 of the definition, ACTIVE. */
export async function createMeter(deps: { now: () => Date }, tx: Prisma.TransactionClient, accountId: string, meter: NewMeter): Promise<MeterRecord> {
  refuseInvalid({ ...labelConstraints({ name: meter.name, eventName: meter.eventName }), ...definitionConstraints(meter) });
  const now = deps.now();
  return tx.meter.create({
    data: {
      id: newId('meter', now.getTime()),
      accountId,
      name: meter.name,
      eventName: meter.eventName,
      aggregation: meter.aggregation,
      status: 'ACTIVE',
      version: 1,
      metadata: jsonOf(meter.metadata ?? null),
      createdAt: now,
      updatedAt: now,
      versions: {
        create: {
          version: 1,
          effectiveFrom: FIRST_VERSION_FROM,
          property: meter.property,
          filters: meter.filters as unknown as Prisma.InputJsonValue,
          groupBy: meter.groupBy,
          createdAt: now,
        },
      },
    },
    include: meterInclude,
  });
}

/** meters/get: a meter of the account, archived or not (404 otherwise). */
export async function getMeter(db: Db, accountId: string, id: string): Promise<MeterRecord> {
  const row = await db.meter.findFirst({ where: { id, accountId }, include: meterInclude });
  if (!row) throw ApiError.notFound('Meter', id);
  return row;
}

export type MeterListFilters = Pick<Prisma.MeterWhereInput, 'status' | 'eventName'>;

/** One page of meters/list, newest first, below `beforeId`. */
export function listMeters(db: Db, accountId: string, filters: MeterListFilters, beforeId: string | undefined, take: number): Promise<MeterRecord[]> {
  const where = { accountId, ...filters, ...(beforeId ? { id: { lt: beforeId } } : {}) };
  return db.meter.findMany({ where, orderBy: { id: 'desc' }, take, include: meterInclude });
}

const lockMeter = sqlStatement('meters.lock', 'SELECT id FROM meters WHERE id = $1 AND account_id = $2 FOR UPDATE');

/**
 * The meter under its row lock, read after the lock is held: changes and archiving of one meter
 * apply one after the other, so two updates never both make version n + 1.
 */
async function lockedMeter(tx: Prisma.TransactionClient, accountId: string, id: string): Promise<MeterRecord> {
  await readRows(tx, lockMeter, [id, accountId]);
  return getMeter(tx, accountId, id);
}

function newestVersion(meter: MeterRecord): MeterRecord['versions'][number] {
  return meter.versions[meter.versions.length - 1]!;
}

function definitionOf(meter: MeterRecord): MeterDefinitionInput {
  const newest = newestVersion(meter);
  return {
    aggregation: meter.aggregation as Aggregation,
    property: newest.property,
    filters: newest.filters as unknown as MeterFilter[],
    groupBy: newest.groupBy,
  };
}

/**
 * meters/update in the caller's transaction. The name and metadata change in place. A change of
 * property, filters or group-by is a new version from `effectiveFrom`, which may not reach back
 * before ingestion's future skew nor before the newest version (422 METER_CHANGE_TOO_EARLY): an
 * event already accepted was measured by the version then in force, once, and stays so. Sending
 * the newest definition again makes no version. An ARCHIVED meter's definition no longer changes.
 */
export async function updateMeter(deps: { now: () => Date }, tx: Prisma.TransactionClient, accountId: string, id: string, changes: MeterChanges): Promise<MeterRecord> {
  const meter = await lockedMeter(tx, accountId, id);
  const changesDefinition = changes.property !== undefined || changes.filters !== undefined || changes.groupBy !== undefined;
  const current = definitionOf(meter);
  const next: MeterDefinitionInput = {
    aggregation: current.aggregation,
    property: changes.property ?? current.property,
    filters: changes.filters ?? current.filters,
    groupBy: changes.groupBy ?? current.groupBy,
  };
  refuseInvalid({ ...labelConstraints({ name: changes.name }), ...(changesDefinition ? definitionConstraints(next) : {}) });
  if (changesDefinition && meter.status !== 'ACTIVE') {
    throw new ApiError('INCOMPATIBLE_STATUS', `Meter ${id} is ${meter.status}; only an ACTIVE meter's definition changes.`, {
      status: meter.status,
      allowed_statuses: ['ACTIVE'],
    });
  }

  const now = deps.now();
  const newVersion = changesDefinition && !sameDefinition(current, next);
  if (newVersion) {
    const earliest = earliestVersionStart(now.getTime(), newestVersion(meter).effectiveFrom.getTime());
    const effectiveFrom = changes.effectiveFrom ?? new Date(earliest);
    if (effectiveFrom.getTime() < earliest) {
      throw new ApiError('METER_CHANGE_TOO_EARLY', `A change of meter ${id} takes effect at ${formatDateTime(new Date(earliest))} or later.`, {
        field: 'effective_from',
        earliest: formatDateTime(new Date(earliest)),
      });
    }
    await tx.meterVersion.create({
      data: {
        meterId: id,
        version: meter.version + 1,
        effectiveFrom,
        property: next.property,
        filters: next.filters as unknown as Prisma.InputJsonValue,
        groupBy: [...next.groupBy],
        createdAt: now,
      },
    });
  }
  const labels = changes.name !== undefined || changes.metadata !== undefined;
  if (!newVersion && !labels) return meter;
  return tx.meter.update({
    where: { id },
    data: {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.metadata !== undefined ? { metadata: jsonOf(changes.metadata) } : {}),
      ...(newVersion ? { version: meter.version + 1 } : {}),
      updatedAt: now,
    },
    include: meterInclude,
  });
}

/**
 * meters/archive in the caller's transaction: ARCHIVED for good, so ingestion measures nothing
 * new with it. Refused (422 METER_IN_USE) while a subscription that is not over bills a usage
 * price of it: its next invoice would lose that usage. Archiving an archived meter answers it as it is.
 */
export async function archiveMeter(deps: { now: () => Date }, tx: Prisma.TransactionClient, accountId: string, id: string): Promise<MeterRecord> {
  const meter = await lockedMeter(tx, accountId, id);
  if (meter.status === 'ARCHIVED') return meter;
  const billing = await liveSubscriptionsBilling(tx, accountId, id);
  if (billing.length > 0) {
    throw new ApiError('METER_IN_USE', `Meter ${id} is billed by subscriptions that are not over; cancel them or move them off its prices first.`, {
      subscription_ids: [...new Set(billing.map((b) => b.subscriptionId))],
      product_price_ids: [...new Set(billing.map((b) => b.productPriceId))],
    });
  }
  const now = deps.now();
  return tx.meter.update({ where: { id }, data: { status: 'ARCHIVED', archivedAt: now, updatedAt: now }, include: meterInclude });
}
