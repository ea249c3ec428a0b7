import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseKey } from '../../api/secrets/key-file';
import { SECRETS_KEY_FILE, secretsKey } from '../../api/secrets/secrets-key';
import { sealSecret } from '../../domain/secret-box';
import { newV1Secret, V1_SECRET_PURPOSE } from '../../domain/v1-signature';
import type { Database } from '../../prisma/client';

/**
 * The key the running platform seals with: SECRETS_KEY, else the file `npm start` keeps in
 * DATA_DIR. Never creates one: a secret sealed under a key the API does not hold would never
 * verify.
 */
export function operatorSecretsKey(env: NodeJS.ProcessEnv = process.env, root = resolve(__dirname, '../..')): Buffer {
  if (env.SECRETS_KEY) return secretsKey(env);
  const file = join(resolve(env.DATA_DIR ?? join(root, '.data')), SECRETS_KEY_FILE);
  if (!existsSync(file)) throw new Error(`SECRETS_KEY is not set and ${file} does not exist: give the platform's SECRETS_KEY.`);
  return parseKey(readFileSync(file, 'utf8'), file);
}

/**
 * Issues the account's v1 restore secret, replacing any earlier one at once (no overlap: the
 * old one fails from the next request; docs/subscription-restore.md). Returns it in clear, to
 * be shown once; only the sealed form is stored.
 */
export async function issueV1Secret(db: Database, accountId: string, key: Uint8Array): Promise<{ account_id: string; rotated: boolean; secret: string }> {
  const secret = newV1Secret();
  const sealed = new Uint8Array(sealSecret(key, V1_SECRET_PURPOSE, secret));
  return db.$transaction(async (tx) => {
    const account = await tx.account.findUnique({ where: { id: accountId }, select: { v1SigningSecret: true } });
    if (!account) throw new Error(`Account ${accountId} does not exist.`);
    await tx.account.update({ where: { id: accountId }, data: { v1SigningSecret: sealed } });
    return { account_id: accountId, rotated: account.v1SigningSecret !== null, secret };
  });
}

/** Turns the v1 service off for the account: its requests are answered 403 1.02 from now on. */
export async function revokeV1Secret(db: Database, accountId: string): Promise<{ account_id: string; v1_enabled: false }> {
  const updated = await db.account.updateMany({ where: { id: accountId }, data: { v1SigningSecret: null } });
  if (updated.count === 0) throw new Error(`Account ${accountId} does not exist.`);
  return { account_id: accountId, v1_enabled: false };
}
