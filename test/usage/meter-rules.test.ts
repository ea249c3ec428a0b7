import { definitionConstraints, earliestVersionStart, labelConstraints, sameDefinition } from '../../domain/usage/meter-rules';
import type { MeterFilter } from '../../domain/usage/meters';

const sum = { aggregation: 'SUM' as const, property: 'bytes', filters: [] as MeterFilter[], groupBy: [] as string[] };

describe('meter definition rules', () => {
  it('accepts a valid definition and names each field a definition breaks', () => {
    expect(definitionConstraints(sum)).toEqual({});
    expect(definitionConstraints({ ...sum, aggregation: 'COUNT', property: null })).toEqual({});
    const broken = definitionConstraints({
      aggregation: 'MAX',
      property: null,
      filters: [
        { property: 'ok', operator: 'IN', values: [] },
        { property: 'bad path', operator: 'EQ' as never, values: ['x'.repeat(201)] },
      ],
      groupBy: ['a', 'a', '$'],
    });
    expect(Object.fromEntries(Object.entries(broken).map(([field, c]) => [field, c.type]))).toEqual({
      property: 'REQUIRED',
      'filters[0].values': 'MIN',
      'filters[1].property': 'FORMAT',
      'filters[1].operator': 'ENUM',
      'filters[1].values[0]': 'MAX',
      'group_by[2]': 'FORMAT',
      group_by: 'INVALID',
    });
    expect(definitionConstraints({ ...sum, aggregation: 'COUNT' }).property?.type).toBe('INVALID');
    expect(definitionConstraints({ ...sum, groupBy: ['a', 'b', 'c', 'd', 'e', 'f'] }).group_by?.type).toBe('MAX');
  });

  it('checks names and event names', () => {
    expect(labelConstraints({ name: 'Storage', eventName: 'storage:written.v2' })).toEqual({});
    expect(labelConstraints({ name: ' ', eventName: 'a b' })).toEqual({ name: expect.objectContaining({ type: 'MIN' }), event_name: expect.objectContaining({ type: 'FORMAT' }) });
    expect(labelConstraints({ name: 'x'.repeat(201) }).name?.type).toBe('MAX');
  });

  it('starts a new version no earlier than the skew ahead and the newest version', () => {
    expect(earliestVersionStart(1_000_000, 0)).toBe(1_000_000 + 5 * 60_000);
    expect(earliestVersionStart(1_000_000, 9_000_000)).toBe(9_000_000);
  });

  it('compares definitions by what they measure', () => {
    const filters: MeterFilter[] = [{ property: 'tier', operator: 'IN', values: ['paid'] }];
    expect(sameDefinition({ ...sum, filters }, { ...sum, filters: [{ ...filters[0]! }] })).toBe(true);
    expect(sameDefinition({ ...sum, filters }, { ...sum, filters: [{ ...filters[0]!, operator: 'NOT_IN' }] })).toBe(false);
    expect(sameDefinition(sum, { ...sum, groupBy: ['region'] })).toBe(false);
    expect(sameDefinition(sum, { ...sum, property: 'kilobytes' })).toBe(false);
  });
});
