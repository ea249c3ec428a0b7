import { issueSecret } from '../../domain/api-key-secret';
import { newId } from '../../domain/ids';
import type { Database, Prisma } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';

type Db = Prisma.TransactionClient;

export const apiKeySelect = {
  id: true,
  name: true,
  description: true,
  rotateAt: true,
  revokedAt: true,
  permissions: true,
  createdAt: true,
  updatedAt: true,
  channelIds: true,
  issuedByUserId: true,
} as const;

export type ApiKeyRow = Prisma.ApiKeyGetPayload<{ select: typeof apiKeySelect }>;

/** `apiKeySelect` as SQL, for the read every api-keys/get makes (test/api-keys/read-row.test.ts holds the two equal). */
const findApiKeySql = sqlStatement(
  'api_keys.find',
  `SELECT id, name, description, rotate_at AS "rotateAt", revoked_at AS "revokedAt", to_json(permissions) AS permissions,
          created_at AS "createdAt", updated_at AS "updatedAt", to_json(channel_ids) AS "channelIds",
          issued_by_user_id AS "issuedByUserId"
   FROM api_keys WHERE id = $1 AND account_id = $2`,
);

export async function findApiKey(db: Database | Db, accountId: string, id: string): Promise<ApiKeyRow | null> {
  const [row] = await readRows<ApiKeyRow>(db, findApiKeySql, [id, accountId]);
  return row ?? null;
}

export interface NewApiKey {
  accountId: string;
  name: string;
  description?: string;
  channelIds: string[];
  permissions: string[];
  /** The dashboard user creating it, if a session does. */
  issuedByUserId?: string;
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
      issuedByUserId: key.issuedByUserId ?? null,
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

/**
 * The key as a rotation leaves it: `rotateAt` is when its previous secret stops working, and the
 * new secret's holder is the dashboard user who rotated (none when an API key did).
 */
export function recordRotation(tx: Db, apiKeyId: string, rotateAt: Date, now: Date, issuedByUserId: string | null) {
  return tx.apiKey.update({ where: { id: apiKeyId }, data: { rotateAt, updatedAt: now, issuedByUserId }, select: apiKeySelect });
}

/**
 * Revokes every secret of the key still valid, the one inside a rotation overlap included, and
 * marks the key REVOKED; `rotateAt` goes with the overlap it announced.
 */
export async function recordRevocation(tx: Db, apiKeyId: string, now: Date) {
  await tx.apiKeySecret.updateMany({ where: { apiKeyId, revokedAt: null }, data: { revokedAt: now } });
  return tx.apiKey.update({ where: { id: apiKeyId }, data: { revokedAt: now, rotateAt: null, updatedAt: now }, select: apiKeySelect });
}

/** The secret the key's latest rotation issued: it names that rotation's overlap workflow. */
export function newestSecretRecord(db: Db, apiKeyId: string) {
  return db.apiKeySecret.findFirst({ where: { apiKeyId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], select: { id: true } });
}
