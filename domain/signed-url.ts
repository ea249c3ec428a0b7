import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed, expiring links to one path (docs/invoice-pdf.md): the query string carries the
 * expiry and an HMAC-SHA256 over `path + "\n" + expires`, so whoever holds the link may fetch
 * that path until then, and changing the path, the expiry or the signature breaks it. Used for
 * invoice PDFs; reports and settlement files are meant to use it too.
 */

export type SignedPathVerdict = 'VALID' | 'EXPIRED' | 'INVALID';

/** Unix seconds as the link writes them: digits only, so one expiry has exactly one spelling. */
const EXPIRES = /^(0|[1-9]\d{0,11})$/;

function signature(key: Uint8Array, path: string, expires: string): string {
  return createHmac('sha256', key).update(`${path}\n${expires}`).digest('base64url');
}

/** `expires=…&signature=…` for `path`, valid until `expiresAtUnixSeconds` (exclusive). */
export function signPath(key: Uint8Array, path: string, expiresAtUnixSeconds: number): string {
  if (!Number.isSafeInteger(expiresAtUnixSeconds) || !EXPIRES.test(String(expiresAtUnixSeconds))) {
    throw new RangeError(`The expiry must be whole non-negative Unix seconds, got ${expiresAtUnixSeconds}.`);
  }
  const expires = String(expiresAtUnixSeconds);
  return new URLSearchParams({ expires, signature: signature(key, path, expires) }).toString();
}

/**
 * The signature is checked before the expiry, so EXPIRED is only ever said of a link this key
 * really issued; a forged or altered one is INVALID whatever its expiry. The comparison takes
 * the same time wherever the presented signature differs (its length is no secret: always 43).
 */
export function verifySignedPath(
  key: Uint8Array,
  path: string,
  expires: string | undefined,
  presented: string | undefined,
  now: Date,
): SignedPathVerdict {
  if (expires === undefined || presented === undefined || !EXPIRES.test(expires)) return 'INVALID';
  const expected = Buffer.from(signature(key, path, expires));
  const given = Buffer.from(presented);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'INVALID';
  return Math.floor(now.getTime() / 1000) >= Number(expires) ? 'EXPIRED' : 'VALID';
}
