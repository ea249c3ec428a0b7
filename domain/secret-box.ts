import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets the platform must use, not merely check (webhook signing secrets, v1 restore
 * signing secrets), are stored sealed with AES-256-GCM under SECRETS_KEY: a database dump
 * alone reveals none of them. Layout: version byte 1, 12-byte nonce, 16-byte tag, ciphertext.
 * `purpose` is bound as associated data, so a sealed value moved to another column or record
 * kind does not open.
 *
 * SECRETS_KEY may be longer than the 32 bytes AES-256 takes. A key of exactly 32 bytes is the
 * AES key itself, as it always was, so everything sealed before longer keys were accepted still
 * opens; a longer key is reduced to 32 bytes with HKDF-SHA256 rather than cut, so every byte of
 * it counts.
 */

const VERSION = 1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const SECRETS_KEY_BYTES = 32;
const HKDF_INFO = 'billing secret-box aes-256-gcm';

/** A shorter key is passed on as it is, for AES to refuse. */
function aesKey(key: Uint8Array): Uint8Array {
  return key.length > SECRETS_KEY_BYTES ? new Uint8Array(hkdfSync('sha256', key, new Uint8Array(0), HKDF_INFO, SECRETS_KEY_BYTES)) : key;
}

export function sealSecret(key: Uint8Array, purpose: string, plaintext: string): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', aesKey(key), nonce);
  cipher.setAAD(Buffer.from(purpose, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), nonce, cipher.getAuthTag(), body]);
}

/** Throws when the value was not sealed under this key and purpose, or was altered. */
export function openSecret(key: Uint8Array, purpose: string, sealed: Uint8Array): string {
  const bytes = Buffer.from(sealed);
  if (bytes.length < 1 + NONCE_BYTES + TAG_BYTES || bytes[0] !== VERSION) throw new Error('Not a sealed secret.');
  const nonce = bytes.subarray(1, 1 + NONCE_BYTES);
  const tag = bytes.subarray(1 + NONCE_BYTES, 1 + NONCE_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', aesKey(key), nonce);
  decipher.setAAD(Buffer.from(purpose, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(bytes.subarray(1 + NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
