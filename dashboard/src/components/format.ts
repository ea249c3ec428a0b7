import { CURRENCY_EXPONENTS, isCurrencyCode } from '../../../domain/currencies';

/**
 * Minor units in the reader's own locale (`€12.34` in en-US, `12,34 €` in de-DE), with the
 * currency's exponent from domain/currencies.ts, the one the amount fields convert by
 * (minorUnits.ts), so what is shown is what would be typed. Every amount the API takes fits in
 * 32 bits, so dividing it by a power of ten gives the double nearest to the exact decimal, which
 * prints back as that decimal: nothing is rounded.
 */
export function money(amount: number | undefined, currency: string | undefined): string {
  if (amount === undefined || currency === undefined) return '—';
  const code = currency.toUpperCase();
  const exponent = isCurrencyCode(code) ? CURRENCY_EXPONENTS[code] : 2;
  const major = amount / 10 ** exponent;
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: code, minimumFractionDigits: exponent, maximumFractionDigits: exponent }).format(major);
  } catch {
    // A code Intl refuses (not three letters) is still shown, with its digits.
    return `${major.toFixed(exponent)} ${currency}`;
  }
}

/** The API's UTC date-time, shown in UTC so every reader sees the same instant. */
export function dateTime(value: string | undefined | null): string {
  if (!value) return '—';
  return value.replace('T', ' ').replace(/\.\d+Z$/, ' UTC').replace(/Z$/, ' UTC');
}

/** `in 9 s`, `in 3 min`, or `ended` for a moment in the past. */
export function timeLeft(until: string, now: number): string {
  const seconds = Math.round((Date.parse(until) - now) / 1000);
  if (seconds <= 0) return 'ended';
  if (seconds < 120) return `${seconds} s left`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min left`;
  if (seconds < 172800) return `${Math.round(seconds / 3600)} h left`;
  return `${Math.round(seconds / 86400)} days left`;
}
