import type { Aggregation, MeterFilter } from '../api/types';

/** The aggregations in words, for the forms and the tables (docs/usage.md, "Meters"). */
export const AGGREGATION_NAMES: Record<Aggregation, string> = {
  COUNT: 'Count of events',
  SUM: 'Sum of a property',
  MAX: 'Largest value of a property',
  UNIQUE_COUNT: 'Distinct values of a property',
  LATEST: 'Latest value of a property',
};

interface FilterDraft {
  /** Keeps a row's fields (and their labels' ids) while rows above it are removed. */
  key: number;
  property: string;
  operator: MeterFilter['operator'];
  /** Comma-separated, as typed. */
  values: string;
}

/** The versioned part of a meter as the form holds it: text fields, split when sent. */
export interface DefinitionDraft {
  property: string;
  filters: FilterDraft[];
  /** Comma-separated property paths. */
  groupBy: string;
}

let nextKey = 0;

export function draftOf(definition: { property?: string; filters: MeterFilter[]; group_by: string[] } | undefined): DefinitionDraft {
  return {
    property: definition?.property ?? '',
    filters: (definition?.filters ?? []).map((filter) => ({ key: nextKey++, property: filter.property, operator: filter.operator, values: filter.values.join(', ') })),
    groupBy: definition?.group_by.join(', ') ?? '',
  };
}

const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** The request's `property`, `filters` and `group_by`; the server checks every rule and answers field by field. */
export function definitionOf(draft: DefinitionDraft, aggregation: Aggregation) {
  return {
    ...(aggregation === 'COUNT' ? {} : { property: draft.property.trim() }),
    filters: draft.filters.map((filter) => ({ property: filter.property.trim(), operator: filter.operator, values: list(filter.values) })),
    group_by: list(draft.groupBy),
  };
}

export function describeFilters(filters: MeterFilter[]): string {
  if (filters.length === 0) return 'none';
  return filters.map((filter) => `${filter.property} ${filter.operator === 'IN' ? 'is one of' : 'is none of'} ${filter.values.join(', ')}`).join('; ');
}

/**
 * Property, filters and group-by of a meter: the fields a new version changes. `prefix` keeps the
 * ids unique when two forms are on one page.
 */
export function MeterDefinitionFields({ prefix, aggregation, draft, onChange }: {
  prefix: string;
  aggregation: Aggregation;
  draft: DefinitionDraft;
  onChange: (next: DefinitionDraft) => void;
}) {
  const setFilter = (key: number, change: Partial<FilterDraft>) =>
    onChange({ ...draft, filters: draft.filters.map((filter) => (filter.key === key ? { ...filter, ...change } : filter)) });
  return (
    <>
      {aggregation === 'COUNT' ? null : (
        <>
          <label htmlFor={`${prefix}-property`}>Property (a dotted path into the event’s properties, e.g. usage.bytes)</label>
          <input id={`${prefix}-property`} required value={draft.property} onChange={(e) => onChange({ ...draft, property: e.target.value })} />
        </>
      )}
      <fieldset>
        <legend>Filters: an event counts when every filter holds</legend>
        {draft.filters.length === 0 ? <p className="hint">No filters: every event of the event name counts.</p> : null}
        {draft.filters.map((filter, index) => (
          <div key={filter.key} className="inline-fields" role="group" aria-label={`Filter ${index + 1}`}>
            <label htmlFor={`${prefix}-filter-${filter.key}-property`}>Property</label>
            <input id={`${prefix}-filter-${filter.key}-property`} required value={filter.property} onChange={(e) => setFilter(filter.key, { property: e.target.value })} />
            <label htmlFor={`${prefix}-filter-${filter.key}-operator`}>Operator</label>
            <select
              id={`${prefix}-filter-${filter.key}-operator`}
              value={filter.operator}
              onChange={(e) => setFilter(filter.key, { operator: e.target.value as MeterFilter['operator'] })}
            >
              <option value="IN">is one of</option>
              <option value="NOT_IN">is none of</option>
            </select>
            <label htmlFor={`${prefix}-filter-${filter.key}-values`}>Values (separated by commas)</label>
            <input id={`${prefix}-filter-${filter.key}-values`} required value={filter.values} onChange={(e) => setFilter(filter.key, { values: e.target.value })} />
            <button type="button" onClick={() => onChange({ ...draft, filters: draft.filters.filter((item) => item.key !== filter.key) })}>
              Remove filter {index + 1}
            </button>
          </div>
        ))}
        <button type="button" onClick={() => onChange({ ...draft, filters: [...draft.filters, { key: nextKey++, property: '', operator: 'IN', values: '' }] })}>
          Add filter
        </button>
      </fieldset>
      <label htmlFor={`${prefix}-group-by`}>Group by (property paths separated by commas, e.g. region; empty: no grouping)</label>
      <input id={`${prefix}-group-by`} value={draft.groupBy} onChange={(e) => onChange({ ...draft, groupBy: e.target.value })} />
    </>
  );
}
