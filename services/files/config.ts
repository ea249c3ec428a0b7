import { ensureKeyFile, MIN_KEY_BYTES, parseKey } from '../secrets/key-file';

/**
 * Settings of the signed file links (docs/invoice-pdf.md, docs/configuration.md). Read from
 * the environment at each call rather than once at import: the launcher and the test platform
 * set them after this module is loaded (the test server's port is known only after listen).
 */

export const MIN_URL_SIGNING_KEY_BYTES = MIN_KEY_BYTES;
export const URL_SIGNING_KEY_FILE = 'url-signing.key';

export function parseUrlSigningKey(text: string, source = 'URL_SIGNING_KEY'): Buffer {
  return parseKey(text, source);
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

/** `npm start`: URL_SIGNING_KEY from the environment, else `<DATA_DIR>/url-signing.key`, created once. */
export function ensureUrlSigningKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): void {
  ensureKeyFile(dataDir, URL_SIGNING_KEY_FILE, 'URL_SIGNING_KEY', env);
}
