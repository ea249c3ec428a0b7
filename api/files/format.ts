import { isCurrencyCode, minorUnitExponent } from '../../domain/currencies';

/**
 * Minor units as a decimal string in the currency's own exponent, from the integer's digits
 * alone (no division, so no binary fraction): EUR 1234 → "12.34", JPY 1234 → "1234",
 * BHD 1234 → "1.234", EUR -5 → "-0.05". No grouping separators: the figure reads the same in
 * every locale and is what a reader types into a payment form.
 */
export function formatMinorUnits(amount: number, currency: string): string {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`Amounts are integers in minor units, got ${amount}.`);
  if (!isCurrencyCode(currency)) throw new RangeError(`Unknown currency ${currency}.`);
  const exponent = minorUnitExponent(currency);
  const digits = String(Math.abs(amount)).padStart(exponent + 1, '0');
  const sign = amount < 0 ? '-' : '';
  if (exponent === 0) return `${sign}${digits}`;
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** "2026-11-21 22:42 UTC": a reader's date and time, explicitly in UTC. */
export function formatUtc(value: Date): string {
  return `${value.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The characters of Windows-1252 above ASCII that are not Latin-1, the encoding of pdfkit's built-in fonts. */
const WINDOWS_1252_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

function inWindows1252(char: string): boolean {
  const code = char.codePointAt(0)!;
  return code === 0x0a || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WINDOWS_1252_EXTRAS.has(char);
}

/**
 * Text the built-in fonts can show. pdfkit would otherwise write other characters as unrelated
 * glyphs ("Łódź" came out as "6Az"): a letter with a mark the font lacks loses the mark
 * ("ő" → "o"), anything else becomes "?", so a reader sees what is missing.
 */
export function printable(text: string): string {
  return Array.from(text.replace(/\r\n?/g, '\n').replace(/\t/g, ' '), (char) => {
    if (inWindows1252(char)) return char;
    const base = char.normalize('NFKD').replace(/\p{M}/gu, '');
    return base !== '' && Array.from(base).every(inWindows1252) ? base : '?';
  }).join('');
}
