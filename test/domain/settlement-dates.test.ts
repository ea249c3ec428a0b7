import { isDay, startOfDay } from '../../domain/settlement-dates';

describe('isDay', () => {
  it('takes real days of every year the API accepts, the first century included', () => {
    expect(isDay('2026-02-28')).toBe(true);
    expect(isDay('0001-01-02')).toBe(true);
    expect(isDay('0099-12-31')).toBe(true);
    expect(startOfDay('0001-01-02').toISOString()).toBe('0001-01-02T00:00:00.000Z');
  });

  it('refuses what is no day', () => {
    expect(isDay('2026-02-30')).toBe(false);
    expect(isDay('2026-13-01')).toBe(false);
    expect(isDay('2026-2-1')).toBe(false);
  });
});
