import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Keys are at least 32 bytes: 64 hex digits or 44 base64 characters. */
export const MIN_KEY_BYTES = 32;

/**
 * Hex when the text is nothing but an even number of hex digits, base64 or base64url
 * otherwise.
 */
export function parseKey(text: string, source: string): Buffer {
  const trimmed = text.trim();
  let key: Buffer | undefined;
  if (/^(?:[0-9a-fA-F]{2})+$/.test(trimmed)) key = Buffer.from(trimmed, 'hex');
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) key = Buffer.from(trimmed, 'base64');
  if (!key || key.length < MIN_KEY_BYTES) {
    throw new Error(`${source} must hold at least ${MIN_KEY_BYTES} bytes written as hex or base64 (for example \`openssl rand -hex 32\`).`);
  }
  return key;
}

/**
 * For `npm start` on no configuration: keeps `env[variable]` if set, otherwise loads
 * `<dataDir>/<fileName>` or creates it (32 random bytes, hex, mode 0600) and sets the variable.
 * Persisted so what was signed or sealed before a restart still verifies or opens after it.
 */
export function ensureKeyFile(dataDir: string, fileName: string, variable: string, env: NodeJS.ProcessEnv = process.env): void {
  if (env[variable]) {
    parseKey(env[variable]!, variable);
    return;
  }
  const file = join(dataDir, fileName);
  try {
    // 'wx' fails when the file exists, so an existing key is never overwritten, even by a racing start.
    writeFileSync(file, `${randomBytes(MIN_KEY_BYTES).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const text = readFileSync(file, 'utf8');
  parseKey(text, file);
  env[variable] = text.trim();
}
