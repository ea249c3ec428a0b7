import type { Client } from '@temporalio/client';
import type { Prisma } from '../../prisma/client';
import { startSecretOverlapEnd, type RotatedSecretKind } from '../workflows/secret-rotation';
import { insertApiKeySecret, insertWebhookSecret } from './issued-secrets';

type Db = Prisma.TransactionClient;

export type { RotatedSecretKind };

/** Where the secrets of one kind live: the rows differ (hashed or sealed), the rotation does not. */
interface SecretStore {
  /** Revokes the secrets still inside the overlap of an earlier rotation. */
  revokeOverlapping(tx: Db, ownerId: string, now: Date): Promise<unknown>;
  current(tx: Db, ownerId: string): Promise<{ id: string } | null>;
  demote(tx: Db, secretRecordId: string, change: { revokedAt: Date } | { expiresAt: Date }): Promise<unknown>;
  issue(tx: Db, ownerId: string, now: Date): Promise<{ recordId: string; secret: string }>;
}

const stores: Record<RotatedSecretKind, SecretStore> = {
  apiKey: {
    revokeOverlapping: (tx, apiKeyId, now) =>
      tx.apiKeySecret.updateMany({ where: { apiKeyId, revokedAt: null, expiresAt: { not: null } }, data: { revokedAt: now } }),
    current: (tx, apiKeyId) => tx.apiKeySecret.findFirst({ where: { apiKeyId, revokedAt: null, expiresAt: null }, select: { id: true } }),
    demote: (tx, id, change) => tx.apiKeySecret.update({ where: { id }, data: change }),
    issue: insertApiKeySecret,
  },
  webhookEndpoint: {
    revokeOverlapping: (tx, endpointId, now) =>
      tx.webhookEndpointSecret.updateMany({ where: { endpointId, revokedAt: null, expiresAt: { not: null } }, data: { revokedAt: now } }),
    current: (tx, endpointId) =>
      tx.webhookEndpointSecret.findFirst({ where: { endpointId, revokedAt: null, expiresAt: null }, select: { id: true } }),
    demote: (tx, id, change) => tx.webhookEndpointSecret.update({ where: { id }, data: change }),
    issue: insertWebhookSecret,
  },
};

export interface SecretRotation {
  kind: RotatedSecretKind;
  /** The API key or webhook endpoint whose secret rotates. */
  ownerId: string;
  /** Where the owner lives: the overlap workflow's search attributes (docs/operators.md). */
  accountId: string;
  channelId?: string | null;
  rotationPeriodSeconds: number;
  now: Date;
}

/**
 * Issues a new current secret (docs/api-keys.md "rotate", docs/webhooks.md "Signatures and
 * secret rotation"). The secret that was current stays valid for the rotation period (revoked at once
 * for 0); one still inside the overlap of an earlier rotation is revoked now: at most two are
 * ever live, and rotating again is how a leaked secret is cut off early. The caller holds the
 * owner's row lock, so concurrent rotations of one owner run one after the other.
 *
 * The workflow ending the overlap is started before the caller commits: started after, a crash
 * in between would lose the timer. If the commit fails instead, the workflow finds the secret
 * without the expiry it carries and does nothing.
 */
export async function rotateSecret(
  { tx, temporal }: { tx: Db; temporal: Client },
  rotation: SecretRotation,
): Promise<{ secret: string; expiresAt: Date }> {
  const store = stores[rotation.kind];
  const expiresAt = new Date(rotation.now.getTime() + rotation.rotationPeriodSeconds * 1000);
  await store.revokeOverlapping(tx, rotation.ownerId, rotation.now);
  const current = await store.current(tx, rotation.ownerId);
  if (current) {
    await store.demote(tx, current.id, rotation.rotationPeriodSeconds === 0 ? { revokedAt: rotation.now } : { expiresAt });
  }
  const issued = await store.issue(tx, rotation.ownerId, rotation.now);
  if (current && rotation.rotationPeriodSeconds > 0) {
    await startSecretOverlapEnd(temporal, rotation.kind, {
      ownerId: rotation.ownerId,
      accountId: rotation.accountId,
      channelId: rotation.channelId,
      issuedSecretRecordId: issued.recordId,
      demotedSecretRecordId: current.id,
      expiresAt: expiresAt.toISOString(),
      rotationPeriodSeconds: rotation.rotationPeriodSeconds,
    });
  }
  return { secret: issued.secret, expiresAt };
}

/**
 * Ends an overlap: revokes the demoted secret only while it still carries the expiry its
 * rotation gave it. So a retry, a secret already revoked by a later rotation or a delete, and a
 * rotation whose transaction rolled back after starting the workflow (the secret kept no expiry,
 * or got another one from a later rotation) all leave nothing to do.
 */
export async function endSecretOverlap(
  { db }: { db: Db },
  { kind, secretRecordId, expiresAt }: { kind: RotatedSecretKind; secretRecordId: string; expiresAt: string },
): Promise<boolean> {
  const where = { id: secretRecordId, revokedAt: null, expiresAt: new Date(expiresAt) };
  const data = { revokedAt: new Date() };
  const { count } =
    kind === 'apiKey' ? await db.apiKeySecret.updateMany({ where, data }) : await db.webhookEndpointSecret.updateMany({ where, data });
  return count > 0;
}
