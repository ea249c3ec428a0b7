import { createHmac } from 'node:crypto';

/** Card number digits as a merchant may type them: groups separated by single spaces. */
export function cardDigits(number: string): string | null {
  const digits = number.trim().replace(/ /g, '');
  return /^\d{12,19}$/.test(digits) ? digits : null;
}

/**
 * The same card always yields the same fingerprint within an account and never across
 * accounts: keyed by the account's own secret, so a fingerprint cannot be reversed by hashing
 * every possible card number, as a plain hash could.
 */
export function cardFingerprint(accountKey: Uint8Array, digits: string): string {
  return createHmac('sha256', accountKey).update(digits, 'utf8').digest('base64url');
}
