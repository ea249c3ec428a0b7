import { issueSecret } from '../../domain/api-key-secret';
import { newId } from '../../domain/ids';
import type { Prisma } from '../../prisma/client';

type Db = Prisma.TransactionClient;

export const apiKeySelect = {
  id: true,
  name: true,
  description: true,
  rotateAt: true,
  permissions: true,
  createdAt: true,
  updatedAt: true,
  channelIds: true,
} as const;

export function findApiKey(db: Db, accountId: string, id: string) {
  return db.apiKey.findFirst({ where: { id, accountId }, select: apiKeySelect });
}

export interface NewApiKey {
  accountId: string;
  name: string;
  description?: string;
  channelIds: string[];
  permissions: string[];
  now: Date;
}

/** Creates the key with its first secret; the secret string is returned once and never stored. */
export async function insertApiKey(tx: Db, key: NewApiKey) {
  const id = newId('apiKey', key.now.getTime());
  const issued = issueSecret();
  const row = await tx.apiKey.create({
    data: {
      id,
      accountId: key.accountId,
      name: key.name,
      description: key.description ?? null,
      permissions: key.permissions,
      createdAt: key.now,
      updatedAt: key.now,
      channelIds: [...key.channelIds].sort(),
      secrets: { create: { id: newId('apiKeySecretRecord'), lookup: issued.lookup, hash: issued.hash, createdAt: key.now } },
    },
    select: apiKeySelect,
  });
  return { row, secret: issued.secret };
}

export async function unknownChannelIds(db: Db, accountId: string, channelIds: string[]): Promise<string[]> {
  const found = await db.channel.findMany({ where: { accountId, id: { in: channelIds } }, select: { id: true } });
  const known = new Set(found.map((c) => c.id));
  return channelIds.filter((id) => !known.has(id));
}

/**
 * The key with its row locked until the transaction ends, so concurrent rotations of one key
 * run one after the other; null when the account has no such key.
 */
export async function lockApiKey(tx: Db, accountId: string, id: string) {
  await tx.$queryRaw`SELECT id FROM api_keys WHERE id = ${id} AND account_id = ${accountId} FOR UPDATE`;
  return findApiKey(tx, accountId, id);
}

export interface Rotation {
  apiKeyId: string;
  rotationPeriodSeconds: number;
  now: Date;
}

/**
 * Issues a new current secret. The secret that was current stays valid for the rotation
 * period (or is revoked at once for a period of 0). A secret still inside the overlap of an
 * earlier rotation is revoked now: at most two secrets are ever valid, and rotating again is
 * how a leaked secret is cut off early. The caller holds the key's row lock (lockApiKey).
 */
export async function rotateSecret(tx: Db, rotation: Rotation) {
  const rotateAt = new Date(rotation.now.getTime() + rotation.rotationPeriodSeconds * 1000);
  const row = await tx.apiKey.update({
    where: { id: rotation.apiKeyId },
    data: { rotateAt, updatedAt: rotation.now },
    select: apiKeySelect,
  });

  await tx.apiKeySecret.updateMany({
    where: { apiKeyId: rotation.apiKeyId, revokedAt: null, expiresAt: { not: null } },
    data: { revokedAt: rotation.now },
  });
  const current = await tx.apiKeySecret.findFirst({
    where: { apiKeyId: rotation.apiKeyId, revokedAt: null, expiresAt: null },
    select: { id: true },
  });
  if (current) {
    await tx.apiKeySecret.update({
      where: { id: current.id },
      data: rotation.rotationPeriodSeconds === 0 ? { revokedAt: rotation.now } : { expiresAt: rotateAt },
    });
  }
  const issued = issueSecret();
  const issuedRecordId = newId('apiKeySecretRecord');
  await tx.apiKeySecret.create({
    data: { id: issuedRecordId, apiKeyId: rotation.apiKeyId, lookup: issued.lookup, hash: issued.hash, createdAt: rotation.now },
  });
  const overlap = current && rotation.rotationPeriodSeconds > 0 ? { demotedSecretRecordId: current.id, expiresAt: rotateAt } : undefined;
  return { row, secret: issued.secret, issuedRecordId, overlap };
}
