import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Section 5.3: the `signature` header is the Base64 of the raw HMAC-SHA256 digest of the body
 * bytes exactly as sent, keyed with the endpoint's `wsec_…` secret (its whole string, as UTF-8).
 */
export function computeSignature(secret: string, body: Uint8Array | string): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

/**
 * True when `header` is the signature of `body` under one of `secrets`. Each secret is checked
 * with a constant-time comparison of the digests, and every secret is tried whatever matched
 * first, so the time taken says nothing about which secret (or how much of a digest) matched.
 */
export function verifySignature(body: Uint8Array | string, header: string | undefined, secrets: readonly string[]): boolean {
  if (!header) return false;
  const presented = Buffer.from(header.trim(), 'base64');
  // 32 bytes is the SHA-256 digest: anything else cannot match and must not reach timingSafeEqual.
  if (presented.length !== 32) return false;
  let matched = false;
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(body).digest();
    if (timingSafeEqual(expected, presented)) matched = true;
  }
  return matched;
}
