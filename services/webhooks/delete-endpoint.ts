import type { ChannelScope } from '../../domain/channel-scope';
import type { Prisma } from '../../prisma/client';
import { cancelPendingDeliveries, lockVisibleEndpoint } from './endpoints';

/**
 * webhooks/delete (docs/webhooks.md) in the caller's transaction: the visible endpoint marked
 * deleted, its secrets revoked and its pending deliveries cancelled. Returns its id.
 */
export async function deleteEndpoint(deps: { now: () => Date }, tx: Prisma.TransactionClient, scope: ChannelScope, endpointId: string): Promise<string> {
  const row = await lockVisibleEndpoint(tx, scope, endpointId);
  const now = deps.now();
  await tx.webhookEndpoint.update({ where: { id: row.id }, data: { deletedAt: now, updatedAt: now } });
  await tx.webhookEndpointSecret.updateMany({ where: { endpointId: row.id, revokedAt: null }, data: { revokedAt: now } });
  await cancelPendingDeliveries(tx, row.id, now);
  return row.id;
}
