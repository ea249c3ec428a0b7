import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The `signature` header of the v1 restore-subscription operation (docs/subscription-restore.md):
 * the Base64 encoding (standard alphabet, with padding) of the raw HMAC-SHA256 digest of the
 * request body bytes exactly as sent, keyed with the UTF-8 bytes of the account's whole v1
 * secret, prefix included. The same construction as webhook signatures (section 5.3), so a
 * merchant needs one piece of code for both directions.
 */

export const V1_SECRET_PREFIX = 'v1sec_';

/** Associated data of the sealed secret in accounts.v1_signing_secret (domain/secret-box.ts). */
export const V1_SECRET_PURPOSE = 'v1-signing-secret';

/** 256 random bits, base64url, after the prefix: 49 characters in all. */
export function newV1Secret(): string {
  return `${V1_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function isV1Secret(value: string): boolean {
  return /^v1sec_[A-Za-z0-9_-]{43}$/.test(value);
}

export function computeV1Signature(secret: string, body: Uint8Array | string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('base64');
}

/**
 * True when `presented` is exactly the signature of `body` under `secret`. Only the one
 * spelling the merchant is told to send is accepted (44 characters, `+/`, `=` padding), so the
 * comparison runs on two buffers of the same, public length and takes the same time wherever
 * they differ.
 */
export function verifyV1Signature(secret: string, body: Uint8Array | string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const expected = Buffer.from(computeV1Signature(secret, body), 'utf8');
  const given = Buffer.from(presented, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
