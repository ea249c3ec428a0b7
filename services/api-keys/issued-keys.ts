import type { Prisma } from '../../prisma/client';
import { apiKeySelect, lockApiKey, recordRevocation } from './repository';

type Db = Prisma.TransactionClient;

/** The ACTIVE keys whose current secret a dashboard user saw (they created or last rotated it), newest first. */
export function activeKeysIssuedBy(db: Db, accountId: string, userId: string) {
  return db.apiKey.findMany({ where: { accountId, issuedByUserId: userId, revokedAt: null }, orderBy: { id: 'desc' }, select: apiKeySelect });
}

/**
 * Revokes those keys in the caller's transaction, each under its row lock as api-keys/revoke
 * does, so a rotation at the same moment cannot hand out a secret that survives. Returns the ids
 * revoked; the caller ends their rotations after the commit (endRevokedKeyRotation).
 */
export async function revokeKeysIssuedBy(tx: Db, accountId: string, userId: string, now: Date): Promise<string[]> {
  const revoked: string[] = [];
  for (const { id } of await activeKeysIssuedBy(tx, accountId, userId)) {
    const key = await lockApiKey(tx, accountId, id);
    if (!key || key.revokedAt || key.issuedByUserId !== userId) continue;
    await recordRevocation(tx, id, now);
    revoked.push(id);
  }
  return revoked;
}
