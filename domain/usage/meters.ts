import { formatDecimal, parseDecimal } from './decimal';

/**
 * Meters (docs/usage.md): which usage events count toward what, and how. The event name and
 * aggregation of a meter are fixed; its property, filters and group-by are versioned, each
 * version in force for events timestamped from its `effectiveFrom`. An event is measured by the
 * version in force at its own timestamp, once, when it is accepted (contributionOf), and the
 * same function measures raw events wherever they are read again (period edges).
 */

export const AGGREGATIONS = ['COUNT', 'SUM', 'MAX', 'UNIQUE_COUNT', 'LATEST'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

export const FILTER_OPERATORS = ['IN', 'NOT_IN'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export interface MeterFilter {
  property: string;
  operator: FilterOperator;
  values: string[];
}

/** One version of one meter, as ingestion and billing read it. */
export interface MeterDefinition {
  meterId: string;
  eventName: string;
  aggregation: Aggregation;
  version: number;
  /** Epoch ms. */
  effectiveFrom: number;
  /** Dotted path into the event's properties; null for COUNT. */
  property: string | null;
  filters: MeterFilter[];
  groupBy: string[];
}

/** Limits of a meter's definition (docs/usage.md, "Limits"). */
export const MAX_FILTERS = 10;
export const MAX_FILTER_VALUES = 100;
export const MAX_GROUP_BY = 5;
export const PROPERTY_PATH = /^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64}){0,4}$/;

/** The value at a dotted path of an event's properties, or undefined. */
export function propertyAt(properties: Record<string, unknown>, path: string): unknown {
  let value: unknown = properties;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = Object.prototype.hasOwnProperty.call(value, part) ? (value as Record<string, unknown>)[part] : undefined;
  }
  return value;
}

/** A property as filters, group-by and UNIQUE_COUNT compare it: strings and numbers as text, anything else not at all. */
function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return null;
}

/** What one event adds to one meter: its group and its value (a scaled decimal; for UNIQUE_COUNT the distinct text). */
export interface Contribution {
  meterId: string;
  groupKey: string;
  /** Scaled decimal for SUM, MAX and LATEST; 0n for COUNT and UNIQUE_COUNT. */
  value: bigint;
  /** UNIQUE_COUNT only. */
  distinct: string | null;
}

export type MeasureRefusal = {
  reason: 'PROPERTY_MISSING' | 'PROPERTY_NOT_NUMERIC' | 'PROPERTY_NOT_SCALAR' | 'NEGATIVE_VALUE' | 'PROPERTY_TOO_LONG';
  meterId: string;
  property: string;
};

/**
 * The longest text a meter keeps of a property (a group-by value, a UNIQUE_COUNT value): they
 * are keys of the roll-ups, and five of them must fit an index row.
 */
export const MAX_MEASURED_TEXT_LENGTH = 200;

/** The version of a meter in force at `at` (versions in ascending order), or null before the first. */
export function versionAt(versions: readonly MeterDefinition[], at: number): MeterDefinition | null {
  let found: MeterDefinition | null = null;
  for (const version of versions) {
    if (version.effectiveFrom <= at) found = version;
    else break;
  }
  return found;
}

/**
 * What an event adds to one meter's version: nothing when the filters leave it out, a refusal
 * when the property a SUM, MAX, LATEST or UNIQUE_COUNT meter reads is missing or (for the
 * numeric ones) not a number, or negative for SUM (usage only adds up).
 */
export function contributionOf(definition: MeterDefinition, properties: Record<string, unknown>): Contribution | MeasureRefusal | null {
  for (const filter of definition.filters) {
    const text = textOf(propertyAt(properties, filter.property));
    const listed = text !== null && filter.values.includes(text);
    if (filter.operator === 'IN' ? !listed : listed) return null;
  }
  const groupValues = definition.groupBy.map((path) => textOf(propertyAt(properties, path)));
  const tooLong = groupValues.findIndex((value) => value !== null && value.length > MAX_MEASURED_TEXT_LENGTH);
  if (tooLong >= 0) return { reason: 'PROPERTY_TOO_LONG', meterId: definition.meterId, property: definition.groupBy[tooLong]! };
  const groupKey = JSON.stringify(groupValues);
  const base = { meterId: definition.meterId, groupKey };
  if (definition.aggregation === 'COUNT' || definition.property === null) return { ...base, value: 0n, distinct: null };
  const raw = propertyAt(properties, definition.property);
  const refusal = (reason: MeasureRefusal['reason']): MeasureRefusal => ({ reason, meterId: definition.meterId, property: definition.property! });
  if (raw === undefined || raw === null) return refusal('PROPERTY_MISSING');
  if (definition.aggregation === 'UNIQUE_COUNT') {
    const text = textOf(raw);
    if (text === null) return refusal('PROPERTY_NOT_SCALAR');
    return text.length > MAX_MEASURED_TEXT_LENGTH ? refusal('PROPERTY_TOO_LONG') : { ...base, value: 0n, distinct: text };
  }
  const value = parseDecimal(raw);
  if (value === null) return refusal('PROPERTY_NOT_NUMERIC');
  if (definition.aggregation === 'SUM' && value < 0n) return refusal('NEGATIVE_VALUE');
  return { ...base, value, distinct: null };
}

export function isRefusal(result: Contribution | MeasureRefusal | null): result is MeasureRefusal {
  return result !== null && 'reason' in result;
}

export { formatDecimal };
