import { ApiError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { Prisma } from '../../prisma/client';
import { isAccountLevel, type Principal } from '../auth/principal';
import { insertWebhookSecret } from '../../services/secrets/rotation';
import { endpointSelect } from './schemas';

type Db = Prisma.TransactionClient;

/** A channel-bound key sees endpoints of its channels only; an all-channel endpoint is account-level. */
export function endpointVisible(principal: Principal, channelId: string | null): boolean {
  return isAccountLevel(principal) || (channelId !== null && principal.channelIds.includes(channelId));
}

/** The endpoint, or 404 when it is deleted, of another account or outside the caller's channels. */
export async function visibleEndpoint(db: Db, principal: Principal, id: string) {
  const row = await db.webhookEndpoint.findFirst({ where: { id, accountId: principal.accountId, deletedAt: null }, select: endpointSelect });
  if (!row || !endpointVisible(principal, row.channelId)) throw ApiError.notFound('Webhook endpoint', id);
  return row;
}

/** As visibleEndpoint, holding the endpoint's row lock until the transaction ends. */
export async function lockVisibleEndpoint(tx: Db, principal: Principal, id: string) {
  await tx.$queryRaw`SELECT id FROM webhook_endpoints WHERE id = ${id} AND account_id = ${principal.accountId} FOR UPDATE`;
  return visibleEndpoint(tx, principal, id);
}

/**
 * ENDPOINT_ALREADY_EXISTS: one live endpoint per URL and account. Two concurrent creates of one
 * URL would both find none, so the check runs under a transaction-scoped advisory lock on
 * (account, url): the second waits for the first to commit, then sees its endpoint.
 */
export async function assertUrlFree(tx: Db, accountId: string, url: string, exceptId?: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`webhook-url:${accountId}:${url}`}))`;
  const existing = await tx.webhookEndpoint.findFirst({
    where: { accountId, url, deletedAt: null, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { id: true },
  });
  if (existing) {
    throw new ApiError('ENDPOINT_ALREADY_EXISTS', `A webhook endpoint for ${url} already exists: ${existing.id}.`, { endpoint_id: existing.id });
  }
}

export interface NewEndpoint {
  accountId: string;
  channelId: string | null;
  url: string;
  description?: string;
  eventTypes: string[];
  now: Date;
}

export async function insertEndpoint(tx: Db, endpoint: NewEndpoint) {
  await assertUrlFree(tx, endpoint.accountId, endpoint.url);
  const id = newId('webhookEndpoint', endpoint.now.getTime());
  await tx.webhookEndpoint.create({
    data: {
      id,
      accountId: endpoint.accountId,
      channelId: endpoint.channelId,
      url: endpoint.url,
      description: endpoint.description ?? null,
      status: 'INACTIVE',
      eventTypes: endpoint.eventTypes,
      createdAt: endpoint.now,
      updatedAt: endpoint.now,
    },
  });
  const { secret } = await insertWebhookSecret(tx, id, endpoint.now);
  const row = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id }, select: endpointSelect });
  return { row, secret };
}

/**
 * Stops what is still queued for an endpoint that no longer receives (deleted, deactivated,
 * disabled): its PENDING deliveries become CANCELLED, and each delivery workflow, waking for its
 * next attempt, finds that and ends without sending.
 */
export function cancelPendingDeliveries(tx: Db, endpointId: string, now: Date) {
  return tx.webhookDelivery.updateMany({
    where: { endpointId, status: 'PENDING' },
    data: { status: 'CANCELLED', nextAttemptAt: null, updatedAt: now },
  });
}
