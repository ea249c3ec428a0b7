import { CURRENCY_EXPONENTS, isCurrencyCode } from '../../../domain/currencies';

/**
 * `12.34` in EUR → 1234, by the currency's own exponent (domain/currencies.ts), on the digits as
 * text so no float rounding can move a cent. Undefined for anything that is not a plain positive
 * decimal with at most that many decimals, or an unknown currency.
 */
export function minorUnitsOf(text: string, currency: string): number | undefined {
  const code = currency.trim().toUpperCase();
  if (!isCurrencyCode(code)) return undefined;
  const exponent = CURRENCY_EXPONENTS[code];
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!match) return undefined;
  const decimals = match[2] ?? '';
  if (decimals.length > exponent) return undefined;
  const minor = Number(`${match[1]}${decimals.padEnd(exponent, '0')}`);
  return Number.isSafeInteger(minor) && minor > 0 ? minor : undefined;
}
