import { formatMinorUnits, formatUtc, printable } from '../../api/files/format';

describe('formatMinorUnits', () => {
  it.each([
    [1234, 'EUR', '12.34'],
    [5, 'EUR', '0.05'],
    [0, 'EUR', '0.00'],
    [-1234, 'EUR', '-12.34'],
    [-5, 'USD', '-0.05'],
    [1234, 'JPY', '1234'],
    [0, 'JPY', '0'],
    [1234, 'BHD', '1.234'],
    [7, 'KWD', '0.007'],
    [1_234_567, 'BHD', '1234.567'],
    [Number.MAX_SAFE_INTEGER, 'EUR', '90071992547409.91'],
  ])('writes %i minor units of %s as %s', (amount, currency, shown) => {
    expect(formatMinorUnits(amount, currency)).toBe(shown);
  });

  it('refuses fractions of a minor unit and unknown currencies', () => {
    expect(() => formatMinorUnits(12.5, 'EUR')).toThrow(RangeError);
    expect(() => formatMinorUnits(1, 'XXX')).toThrow(RangeError);
  });
});

describe('formatUtc', () => {
  it('writes minutes in UTC whatever the local zone', () => {
    expect(formatUtc(new Date('2026-03-01T23:59:59.999+01:00'))).toBe('2026-03-01 22:59 UTC');
  });
});

describe('printable', () => {
  it('keeps Windows-1252, drops marks the font lacks and marks the rest with ?', () => {
    expect(printable('Zoë Ångström, 5 € – “quoted”')).toBe('Zoë Ångström, 5 € – “quoted”');
    expect(printable('Erdős ﬁne')).toBe('Erdos fine');
    expect(printable('Łódź 東京')).toBe('?ódz ??');
    expect(printable('a\r\nb\tc')).toBe('a\nb c');
  });
});
