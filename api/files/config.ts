import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Settings of the signed file links (docs/invoice-pdf.md, docs/configuration.md). Read from
 * the environment at each call rather than once at import: the launcher and the test platform
 * set them after this module is loaded (the test server's port is known only after listen).
 */

export const MIN_URL_SIGNING_KEY_BYTES = 32;
export const URL_SIGNING_KEY_FILE = 'url-signing.key';

/**
 * Hex when the text is nothing but an even number of hex digits, base64 or base64url
 * otherwise: 64 hex digits or 44 base64 characters are 32 bytes.
 */
export function parseUrlSigningKey(text: string, source = 'URL_SIGNING_KEY'): Buffer {
  const trimmed = text.trim();
  let key: Buffer | undefined;
  if (/^(?:[0-9a-fA-F]{2})+$/.test(trimmed)) key = Buffer.from(trimmed, 'hex');
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) key = Buffer.from(trimmed, 'base64');
  if (!key || key.length < MIN_URL_SIGNING_KEY_BYTES) {
    throw new Error(
      `${source} must hold at least ${MIN_URL_SIGNING_KEY_BYTES} bytes written as hex or base64 (for example \`openssl rand -hex 32\`).`,
    );
  }
  return key;
}

/** Undefined when unset: file links are then off (invoices carry no pdf_url). Throws when malformed. */
export function urlSigningKey(env: NodeJS.ProcessEnv = process.env): Buffer | undefined {
  const text = env.URL_SIGNING_KEY;
  return text ? parseUrlSigningKey(text) : undefined;
}

/** Where links point, without a trailing slash. */
export function publicUrl(env: NodeJS.ProcessEnv = process.env): string {
  return (env.PUBLIC_URL ?? `http://localhost:${env.PORT ?? 3000}`).replace(/\/+$/, '');
}

/**
 * For `npm start` on no configuration: keeps URL_SIGNING_KEY if set, otherwise loads
 * `<dataDir>/url-signing.key` or creates it (32 random bytes, hex, mode 0600) and sets it in
 * `env`. Persisted so links handed out before a restart still work after it.
 */
export function ensureUrlSigningKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): void {
  if (env.URL_SIGNING_KEY) {
    parseUrlSigningKey(env.URL_SIGNING_KEY);
    return;
  }
  const file = join(dataDir, URL_SIGNING_KEY_FILE);
  try {
    // 'wx' fails when the file exists, so an existing key is never overwritten, even by a racing start.
    writeFileSync(file, `${randomBytes(MIN_URL_SIGNING_KEY_BYTES).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const text = readFileSync(file, 'utf8');
  parseUrlSigningKey(text, file);
  env.URL_SIGNING_KEY = text.trim();
}
