import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseKey } from '../../services/secrets/key-file';
import { SECRETS_KEY_FILE, secretsKey } from '../../services/secrets/secrets-key';
import { formatDateTime } from '../../domain/datetime';
import { sealSecret } from '../../domain/secret-box';
import { newV1Secret, V1_SECRET_PURPOSE } from '../../domain/v1-signature';
import type { Database } from '../../prisma/client';
import { deleteAnswersOfRotatedOutSecrets } from '../../services/v1/recorded-answers';

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

/** How long a rotated-out v1 secret is still accepted unless the operator says otherwise. */
export const DEFAULT_V1_OVERLAP_HOURS = 24;

/**
 * Issues the account's v1 restore secret (docs/subscription-restore.md). A rotation keeps the
 * secret it replaces valid for `overlapHours` (default 24), so the merchant can switch without
 * failed requests; 0 ends it at once (a leaked secret). The recorded answers of a secret that
 * stops verifying go with it. Returns the new secret in clear, to be shown once; only sealed forms
 * are stored.
 */
export async function issueV1Secret(
  db: Database,
  accountId: string,
  key: Uint8Array,
  options: { overlapHours?: number; now?: Date } = {},
): Promise<{ account_id: string; rotated: boolean; previous_valid_until?: string; secret: string }> {
  const overlapHours = options.overlapHours ?? DEFAULT_V1_OVERLAP_HOURS;
  if (!Number.isFinite(overlapHours) || overlapHours < 0 || overlapHours > 24 * 30) throw new Error('The overlap is 0 to 720 hours.');
  const secret = newV1Secret();
  const sealed = new Uint8Array(sealSecret(key, V1_SECRET_PURPOSE, secret));
  const now = options.now ?? new Date();
  return db.$transaction(async (tx) => {
    const account = await tx.account.findUnique({ where: { id: accountId }, select: { v1SigningSecret: true } });
    if (!account) throw new Error(`Account ${accountId} does not exist.`);
    const overlap = account.v1SigningSecret !== null && overlapHours > 0 ? new Date(now.getTime() + overlapHours * 3_600_000) : null;
    await tx.account.update({
      where: { id: accountId },
      data: {
        v1SigningSecret: sealed,
        v1PreviousSigningSecret: overlap ? account.v1SigningSecret : null,
        v1PreviousSecretExpiresAt: overlap,
        v1SecretGeneration: { increment: 1 },
      },
    });
    await deleteAnswersOfRotatedOutSecrets(tx, now, { accountId });
    return {
      account_id: accountId,
      rotated: account.v1SigningSecret !== null,
      ...(overlap ? { previous_valid_until: formatDateTime(overlap) } : {}),
      secret,
    };
  });
}

/** Turns the v1 service off for the account: its requests are answered 403 1.02 from now on, and its recorded answers go. */
export async function revokeV1Secret(db: Database, accountId: string, now: Date = new Date()): Promise<{ account_id: string; v1_enabled: false }> {
  return db.$transaction(async (tx) => {
    const updated = await tx.account.updateMany({
      where: { id: accountId },
      data: { v1SigningSecret: null, v1PreviousSigningSecret: null, v1PreviousSecretExpiresAt: null },
    });
    if (updated.count === 0) throw new Error(`Account ${accountId} does not exist.`);
    await deleteAnswersOfRotatedOutSecrets(tx, now, { accountId });
    return { account_id: accountId, v1_enabled: false as const };
  });
}
