import type { Constraints } from '../errors';
import { MAX_FUTURE_SKEW_MS } from './ingestion-window';
import { AGGREGATIONS, FILTER_OPERATORS, MAX_FILTER_VALUES, MAX_FILTERS, MAX_GROUP_BY, PROPERTY_PATH, type Aggregation, type MeterFilter } from './meters';

/**
 * What makes a meter's definition valid (docs/usage.md, "Meters"): the API states the same rules
 * in its schemas; these are the ones a schema cannot see alone (whether the aggregation reads a
 * property, which on update depends on the stored meter), checked again in full so no caller
 * stores a definition ingestion could not measure with.
 */
export const MAX_METER_NAME_LENGTH = 200;
export const MAX_FILTER_VALUE_LENGTH = 200;
/** Event names: what ingestion matches meters by. */
export const EVENT_NAME = /^[A-Za-z0-9_.:-]{1,100}$/;

/** The aggregations that read a property (every one but COUNT). */
export function readsProperty(aggregation: Aggregation): boolean {
  return aggregation !== 'COUNT';
}

export interface MeterDefinitionInput {
  aggregation: Aggregation;
  property: string | null;
  filters: readonly MeterFilter[];
  groupBy: readonly string[];
}

const PROPERTY_PATH_MESSAGE = 'Expected a dotted path of 1 to 5 segments, each 1 to 64 letters, digits, `_` or `-`.';

/** Every rule a definition breaks, keyed by its field as the request writes it (`filters[0].values`); empty when valid. */
export function definitionConstraints(definition: MeterDefinitionInput): Constraints {
  const constraints: Constraints = {};
  const add = (path: string, type: Constraints[string]['type'], message: string) => {
    constraints[path] ??= { type, message };
  };

  if (!(AGGREGATIONS as readonly string[]).includes(definition.aggregation)) add('aggregation', 'ENUM', `Expected one of ${AGGREGATIONS.join(', ')}.`);
  else if (readsProperty(definition.aggregation) && definition.property === null) add('property', 'REQUIRED', `A ${definition.aggregation} meter reads a property.`);
  else if (!readsProperty(definition.aggregation) && definition.property !== null) add('property', 'INVALID', 'A COUNT meter reads no property.');
  if (definition.property !== null && !PROPERTY_PATH.test(definition.property)) add('property', 'FORMAT', PROPERTY_PATH_MESSAGE);

  if (definition.filters.length > MAX_FILTERS) add('filters', 'MAX', `At most ${MAX_FILTERS} filters.`);
  definition.filters.forEach((filter, i) => {
    if (!PROPERTY_PATH.test(filter.property)) add(`filters[${i}].property`, 'FORMAT', PROPERTY_PATH_MESSAGE);
    if (!(FILTER_OPERATORS as readonly string[]).includes(filter.operator)) add(`filters[${i}].operator`, 'ENUM', `Expected one of ${FILTER_OPERATORS.join(', ')}.`);
    if (filter.values.length === 0) add(`filters[${i}].values`, 'MIN', 'At least one value.');
    if (filter.values.length > MAX_FILTER_VALUES) add(`filters[${i}].values`, 'MAX', `At most ${MAX_FILTER_VALUES} values.`);
    filter.values.forEach((value, j) => {
      if (typeof value !== 'string') add(`filters[${i}].values[${j}]`, 'TYPE', 'Expected a string.');
      else if (value.length > MAX_FILTER_VALUE_LENGTH) add(`filters[${i}].values[${j}]`, 'MAX', `At most ${MAX_FILTER_VALUE_LENGTH} characters.`);
    });
  });

  if (definition.groupBy.length > MAX_GROUP_BY) add('group_by', 'MAX', `At most ${MAX_GROUP_BY} paths.`);
  definition.groupBy.forEach((path, i) => {
    if (!PROPERTY_PATH.test(path)) add(`group_by[${i}]`, 'FORMAT', PROPERTY_PATH_MESSAGE);
  });
  if (new Set(definition.groupBy).size !== definition.groupBy.length) add('group_by', 'INVALID', 'Each path may appear once.');
  return constraints;
}

/** The rules of a meter's name and event name, which are no part of its versioned definition. */
export function labelConstraints(meter: { name?: string; eventName?: string }): Constraints {
  const constraints: Constraints = {};
  if (meter.name !== undefined) {
    const length = meter.name.trim().length;
    if (length === 0) constraints.name = { type: 'MIN', message: 'A name has at least one character besides spaces.' };
    else if (meter.name.length > MAX_METER_NAME_LENGTH) constraints.name = { type: 'MAX', message: `At most ${MAX_METER_NAME_LENGTH} characters.` };
  }
  if (meter.eventName !== undefined && !EVENT_NAME.test(meter.eventName)) {
    constraints.event_name = { type: 'FORMAT', message: 'Expected 1 to 100 letters, digits, `_`, `.`, `:` or `-`.' };
  }
  return constraints;
}

/** Whether two definitions measure alike: an update that sends the newest one again makes no version. */
export function sameDefinition(a: MeterDefinitionInput, b: MeterDefinitionInput): boolean {
  return (
    a.property === b.property &&
    JSON.stringify(a.groupBy) === JSON.stringify(b.groupBy) &&
    JSON.stringify(a.filters.map((f) => [f.property, f.operator, f.values])) === JSON.stringify(b.filters.map((f) => [f.property, f.operator, f.values]))
  );
}

/**
 * The earliest `effective_from` of a new version: no earlier than ingestion's future skew
 * (an event already accepted may be timestamped up to then, and was measured by the version
 * in force), and no earlier than the newest version's, so versions stay in order of both.
 */
export function earliestVersionStart(now: number, newestEffectiveFrom: number): number {
  return Math.max(now + MAX_FUTURE_SKEW_MS, newestEffectiveFrom);
}
