import { z } from 'zod';
import { formatDateTime } from '../../domain/datetime';
import { EVENT_NAME, MAX_FILTER_VALUE_LENGTH, MAX_METER_NAME_LENGTH } from '../../domain/usage/meter-rules';
import { AGGREGATIONS, FILTER_OPERATORS, MAX_FILTER_VALUES, MAX_FILTERS, MAX_GROUP_BY, PROPERTY_PATH, type MeterFilter } from '../../domain/usage/meters';
import type { Metadata, MeterRecord } from '../../services/usage/meters';
import { metadataObject } from '../common/metadata';
import { dateTime, prefixedId } from '../common/schemas';

export const METER_STATUSES = ['ACTIVE', 'ARCHIVED'] as const;

export const meterId = prefixedId('meter');
export const aggregation = z.enum(AGGREGATIONS);
export const meterStatus = z.enum(METER_STATUSES);

export const meterName = z.string().trim().min(1).max(MAX_METER_NAME_LENGTH);

export const eventName = z
  .string()
  .regex(EVENT_NAME, { message: 'Expected 1 to 100 letters, digits, `_`, `.`, `:` or `-`.' })
  .meta({ description: 'The `event_name` of the usage events the meter measures; several meters may measure one event name.' });

export const propertyPath = z
  .string()
  .regex(PROPERTY_PATH, { message: 'Expected a dotted path of 1 to 5 segments, each 1 to 64 letters, digits, `_` or `-`.' })
  .meta({ description: 'A dotted path into an event’s `properties`, for example `usage.bytes`.' });

export const meterFilter = z.strictObject({
  property: propertyPath,
  operator: z.enum(FILTER_OPERATORS).meta({ description: 'IN: the property’s value is one of `values`. NOT_IN: it is none of them (a missing property is none of them).' }),
  values: z.array(z.string().max(MAX_FILTER_VALUE_LENGTH)).min(1).max(MAX_FILTER_VALUES).meta({ description: 'Compared with the property as text: a number as JSON writes it, a boolean as `true` or `false`.' }),
});

export const meterFilters = z
  .array(meterFilter)
  .max(MAX_FILTERS)
  .meta({ description: `At most ${MAX_FILTERS}; an event counts when every filter holds.` });

export const groupBy = z
  .array(propertyPath)
  .max(MAX_GROUP_BY)
  .refine((paths) => new Set(paths).size === paths.length, { message: 'Each path may appear once.', params: { type: 'INVALID' } })
  .meta({ uniqueItems: true, description: `At most ${MAX_GROUP_BY} property paths whose values split the usage (usage/summary groups by them).` });

const filterObject = z.object({ property: z.string(), operator: z.enum(FILTER_OPERATORS), values: z.array(z.string()) });

const definitionFields = {
  property: z.string().optional().meta({ description: 'Absent for COUNT.' }),
  filters: z.array(filterObject),
  group_by: z.array(z.string()),
};

export const meterVersionObject = z
  .object({
    version: z.number().int(),
    effective_from: dateTime.meta({ description: 'Events timestamped from here (until the next version’s) are measured by this version. Version 1: 1970-01-01, every timestamp.' }),
    ...definitionFields,
  })
  .meta({ id: 'MeterVersion' });

export const meterObject = z
  .object({
    id: z.string(),
    name: z.string(),
    event_name: z.string(),
    aggregation,
    ...definitionFields,
    status: meterStatus,
    version: z.number().int().meta({ description: 'The newest version, whose definition the fields above show; it may not be in force yet (see `versions`).' }),
    versions: z.array(meterVersionObject).meta({ description: 'Every version, oldest first.' }),
    metadata: metadataObject.optional(),
    created_at: dateTime,
    updated_at: dateTime,
    archived_at: dateTime.optional(),
  })
  .meta({ id: 'Meter' });

export type MeterObject = z.infer<typeof meterObject>;

function definitionOf(version: { property: string | null; filters: unknown; groupBy: string[] }) {
  return {
    ...(version.property === null ? {} : { property: version.property }),
    filters: version.filters as MeterFilter[],
    group_by: version.groupBy,
  };
}

export function serializeMeter(row: MeterRecord): MeterObject {
  const newest = row.versions[row.versions.length - 1]!;
  return {
    id: row.id,
    name: row.name,
    event_name: row.eventName,
    aggregation: row.aggregation as MeterObject['aggregation'],
    ...definitionOf(newest),
    status: row.status as MeterObject['status'],
    version: row.version,
    versions: row.versions.map((v) => ({ version: v.version, effective_from: formatDateTime(v.effectiveFrom), ...definitionOf(v) })),
    ...(row.metadata === null ? {} : { metadata: row.metadata as Metadata }),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
    ...(row.archivedAt === null ? {} : { archived_at: formatDateTime(row.archivedAt) }),
  };
}
