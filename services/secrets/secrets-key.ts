import { ensureKeyFile, parseKey } from './key-file';

export const SECRETS_KEY_FILE = 'secrets.key';

/**
 * The key that seals stored secrets the platform signs with (domain/secret-box.ts). Read at
 * each call: the launcher and the test platform set it after modules load. Throws when unset:
 * a secret that cannot be sealed must not be issued.
 */
export function secretsKey(env: NodeJS.ProcessEnv = process.env): Buffer {
  const text = env.SECRETS_KEY;
  if (!text) throw new Error('SECRETS_KEY is not set (docs/configuration.md).');
  return parseKey(text, 'SECRETS_KEY');
}

/** `npm start`: SECRETS_KEY from the environment, else `<DATA_DIR>/secrets.key`, created once. */
export function ensureSecretsKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): void {
  ensureKeyFile(dataDir, SECRETS_KEY_FILE, 'SECRETS_KEY', env);
}
