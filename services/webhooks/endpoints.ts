import { channelVisible, type ChannelScope } from '../../domain/channel-scope';
import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';

type Db = Prisma.TransactionClient;

export const endpointSelect = {
  id: true,
  accountId: true,
  channelId: true,
  url: true,
  description: true,
  status: true,
  disabledReason: true,
  eventTypes: true,
  createdAt: true,
  updatedAt: true,
  secrets: { where: { revokedAt: null, expiresAt: { not: null } }, select: { expiresAt: true } },
} as const;

/** A channel-bound key sees endpoints (and events) of its channels only; an all-channel endpoint is account-level. */
export const endpointVisible = channelVisible;

/** The endpoint, or 404 when it is deleted, of another account or outside the caller's channels. */
export async function visibleEndpoint(db: Db, scope: ChannelScope, id: string) {
  const row = await db.webhookEndpoint.findFirst({ where: { id, accountId: scope.accountId, deletedAt: null }, select: endpointSelect });
  if (!row || !endpointVisible(scope, row.channelId)) throw ApiError.notFound('Webhook endpoint', id);
  return row;
}

/**
 * The endpoint, only while ACTIVE: the sender and every retry send to ACTIVE endpoints only, so
 * redelivering or testing one that is not would queue what is never sent. 422 ENDPOINT_NOT_ACTIVE.
 */
export async function activeVisibleEndpoint(db: Db, scope: ChannelScope, id: string) {
  const endpoint = await visibleEndpoint(db, scope, id);
  if (endpoint.status !== 'ACTIVE') {
    throw new ApiError('ENDPOINT_NOT_ACTIVE', `Webhook endpoint ${id} is ${endpoint.status}; patch it to ACTIVE first.`, { status: endpoint.status });
  }
  return endpoint;
}

/** As visibleEndpoint, holding the endpoint's row lock until the transaction ends. */
export async function lockVisibleEndpoint(tx: Db, scope: ChannelScope, id: string) {
  await tx.$queryRaw`SELECT id FROM webhook_endpoints WHERE id = ${id} AND account_id = ${scope.accountId} FOR UPDATE`;
  return visibleEndpoint(tx, scope, id);
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
