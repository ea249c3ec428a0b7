import { addMonthsClamped, boundary, nextBoundaryAfter, periodContaining, periodIndexAt, prorate } from '../../domain/billing-periods';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const MONTH = { value: 1, unit: 'MONTH' } as const;

describe('billing periods', () => {
  it('a cycle anchored on the 31st bills on the last day of shorter months and returns to the 31st', () => {
    const anchor = at('2027-01-31T10:00:00.000Z');
    const days = Array.from({ length: 14 }, (_, k) => iso(boundary(anchor, MONTH, k)).slice(0, 10));
    expect(days).toEqual([
      '2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31', '2027-06-30', '2027-07-31',
      '2027-08-31', '2027-09-30', '2027-10-31', '2027-11-30', '2027-12-31', '2028-01-31', '2028-02-29',
    ]);
    expect(iso(boundary(anchor, MONTH, 1))).toBe('2027-02-28T10:00:00.000Z');
  });

  it('quarters and years follow the same rule; a Feb 29 anchor bills Feb 28 until the next leap year', () => {
    const leap = at('2028-02-29T00:00:00.000Z');
    const year = { value: 1, unit: 'YEAR' } as const;
    expect([1, 2, 3, 4].map((k) => iso(boundary(leap, year, k)).slice(0, 10))).toEqual(['2029-02-28', '2030-02-28', '2031-02-28', '2032-02-29']);
    expect(iso(boundary(at('2026-11-30T00:00:00Z'), { value: 1, unit: 'QUARTER' }, 1)).slice(0, 10)).toBe('2027-02-28');
    expect(iso(boundary(at('2027-01-31T00:00:00Z'), MONTH, -2)).slice(0, 10)).toBe('2026-11-30');
  });

  it('fixed units are exact multiples from the anchor', () => {
    const anchor = at('2027-03-01T00:00:00Z');
    expect(iso(boundary(anchor, { value: 15, unit: 'MINUTE' }, 3))).toBe('2027-03-01T00:45:00.000Z');
    expect(iso(boundary(anchor, { value: 2, unit: 'WEEK' }, 1))).toBe('2027-03-15T00:00:00.000Z');
    expect(iso(boundary(anchor, { value: 1, unit: 'HOUR' }, -1))).toBe('2027-02-28T23:00:00.000Z');
  });

  it('finds the period containing an instant, the boundary itself belonging to the period it starts', () => {
    const anchor = at('2027-01-31T10:00:00.000Z');
    expect(periodIndexAt(anchor, MONTH, at('2027-02-28T10:00:00.000Z'))).toBe(1);
    expect(periodIndexAt(anchor, MONTH, at('2027-02-28T09:59:59.999Z'))).toBe(0);
    expect(periodIndexAt(anchor, MONTH, at('2026-12-31T10:00:00.000Z'))).toBe(-1);
    const period = periodContaining(anchor, MONTH, at('2028-02-15T00:00:00Z'));
    expect([iso(period.start), iso(period.end)]).toEqual(['2028-01-31T10:00:00.000Z', '2028-02-29T10:00:00.000Z']);
    expect(iso(nextBoundaryAfter(anchor, MONTH, at('2028-02-29T10:00:00.000Z')))).toBe('2028-03-31T10:00:00.000Z');
    for (let t = at('2026-01-01T00:00:00Z'); t < at('2031-01-01T00:00:00Z'); t += 86_400_000 * 3 + 3_600_000) {
      const k = periodIndexAt(anchor, MONTH, t);
      expect(boundary(anchor, MONTH, k)).toBeLessThanOrEqual(t);
      expect(boundary(anchor, MONTH, k + 1)).toBeGreaterThan(t);
    }
  });

  it('clamps the day when moving months, keeping the time of day', () => {
    expect(iso(addMonthsClamped(at('2027-05-31T23:59:59.000Z'), 1))).toBe('2027-06-30T23:59:59.000Z');
    expect(iso(addMonthsClamped(at('2027-03-31T00:00:00.000Z'), -1))).toBe('2027-02-28T00:00:00.000Z');
  });

  it('prorates by whole seconds, rounded half up, exactly', () => {
    expect(prorate(7_000, 3 * 86_400_000, 7 * 86_400_000)).toBe(3_000);
    expect(prorate(1_000, 1_000, 3_000)).toBe(333);
    expect(prorate(1_000, 2_000, 3_000)).toBe(667);
    expect(prorate(1, 1_000, 2_000)).toBe(1);
    expect(prorate(999_999_999, 1_000, 3_000)).toBe(333_333_333);
    expect(prorate(5_000, 10_000, 10_000)).toBe(5_000);
    expect(prorate(5_000, 0, 10_000)).toBe(0);
    expect(prorate(5_000, 1_999, 10_000)).toBe(500);
  });
});
