import { CURRENCY_EXPONENTS, isCurrencyCode } from '../../../domain/currencies';

/**
 * The number of minor units a currency's major unit has, as the platform stores amounts
 * (domain/currencies.ts). Intl's own digits are not used for this: for HUF, IDR, COP and others
 * Intl shows no decimals where ISO 4217 (and so every amount the API sends) has two, and dividing
 * by Intl's exponent would show 100 times the amount.
 */
export function exponentOf(currency: string): number {
  if (isCurrencyCode(currency)) return CURRENCY_EXPONENTS[currency];
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Integer minor units as an exact decimal string: 123456 with exponent 2 → `1234.56`. */
export function decimalOf(minor: number, exponent: number): Intl.StringNumericLiteral {
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  const whole = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
  return (minor < 0 ? `-${whole}` : whole) as Intl.StringNumericLiteral;
}

/**
 * `1234.56 €` in the reader's language, from minor units, with exactly the currency's decimals:
 * the amount is handed to Intl as a decimal string, so no float and no rounding come between.
 */
export function formatMoney(locale: string, minor: number, currency: string): string {
  const exponent = exponentOf(currency);
  const decimal = decimalOf(minor, exponent);
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: exponent, maximumFractionDigits: exponent }).format(decimal);
  } catch {
    return `${decimal} ${currency}`;
  }
}

export function formatDate(locale: string, iso: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(iso));
}

export function formatDateTime(locale: string, iso: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** A decimal quantity from the API (usage, `"1234.5"`) in the reader's digits, exactly. */
export function formatQuantity(locale: string, quantity: string | number): string {
  try {
    return new Intl.NumberFormat(locale, { maximumFractionDigits: 20 }).format(String(quantity) as Intl.StringNumericLiteral);
  } catch {
    return String(quantity);
  }
}
