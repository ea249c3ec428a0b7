/** E.164: `+`, a country code not starting with 0, at most 15 digits in all. */
const E164 = /^\+[1-9]\d{1,14}$/;

/** What people write between the digits of a number: spaces of any kind, dots, hyphens, slashes. */
const SEPARATORS = /[\s.\-/]/g;

/**
 * `(0)` after the country code is the written convention for a national trunk prefix that is
 * not dialled from abroad (`+44 (0)20 7946 0958`): it is no digit of the E.164 number.
 */
const TRUNK_PREFIX = /^(\+\d{1,3})\(0\)/;

/**
 * A phone number written the usual ways (`+1 555-123-4567`, `+49 (30) 123 456`, `+33.1.23.45.67.89`,
 * `+44 (0)20 7946 0958`) in E.164 (`+15551234567`), or null when it cannot be one: no leading `+`
 * (a national number names no country, and a leading `00` or `011` is not the international
 * prefix everywhere), letters or an extension, unbalanced or nested parentheses, or a digit
 * count E.164 does not allow.
 */
export function e164PhoneNumber(written: string): string | null {
  const compact = written.trim().replace(SEPARATORS, '').replace(TRUNK_PREFIX, '$1');
  if (!/^\+[\d()]*$/.test(compact)) return null;
  const withoutGroups = compact.replace(/\((\d+)\)/g, '$1');
  if (/[()]/.test(withoutGroups)) return null;
  return E164.test(withoutGroups) ? withoutGroups : null;
}
