import type { ChannelScope } from '../../domain/channel-scope';
import type { Prisma } from '../../prisma/client';
import { cancelPendingDeliveries, endpointSelect, lockVisibleEndpoint } from './endpoints';
import { assertUrlFree } from './repository';

/** What webhooks/patch changes: a field left undefined is kept; a null description removes it. */
export interface EndpointChanges {
  url?: string;
  description?: string | null;
  eventTypes?: string[];
  status?: 'ACTIVE' | 'INACTIVE';
}

/**
 * webhooks/patch (docs/webhooks.md) in the caller's transaction: the visible endpoint locked and
 * changed; deactivating it cancels what is still pending for it.
 */
export async function patchEndpoint(
  deps: { now: () => Date },
  tx: Prisma.TransactionClient,
  scope: ChannelScope,
  endpointId: string,
  changes: EndpointChanges,
) {
  const row = await lockVisibleEndpoint(tx, scope, endpointId);
  const now = deps.now();
  if (changes.url !== undefined && changes.url !== row.url) await assertUrlFree(tx, scope.accountId, changes.url, row.id);
  const activating = changes.status === 'ACTIVE' && row.status !== 'ACTIVE';
  const deactivating = changes.status === 'INACTIVE' && row.status !== 'INACTIVE';
  const saved = await tx.webhookEndpoint.update({
    where: { id: row.id },
    data: {
      ...(changes.url !== undefined ? { url: changes.url } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.eventTypes !== undefined ? { eventTypes: changes.eventTypes } : {}),
      ...(changes.status !== undefined ? { status: changes.status } : {}),
      // A fresh start: an endpoint re-enabled after being DISABLED gets the full 3 days again.
      ...(activating || deactivating ? { disabledReason: null, failingSince: null } : {}),
      updatedAt: now,
    },
    select: endpointSelect,
  });
  if (deactivating) await cancelPendingDeliveries(tx, row.id, now);
  return saved;
}
