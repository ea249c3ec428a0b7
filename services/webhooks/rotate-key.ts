import type { Client } from '@temporalio/client';
import type { ChannelScope } from '../../domain/channel-scope';
import type { Prisma } from '../../prisma/client';
import { rotateSecret } from '../secrets/rotation';
import { endpointSelect, lockVisibleEndpoint } from './endpoints';

/**
 * webhooks/rotate-key (docs/webhooks.md, "Signatures and secret rotation") in the caller's
 * transaction: the visible endpoint locked (404 otherwise) and its signing secret rotated.
 */
export async function rotateEndpointSecret(
  deps: { temporal: Client; now: () => Date },
  tx: Prisma.TransactionClient,
  scope: ChannelScope,
  input: { endpointId: string; rotationPeriodSeconds: number },
) {
  const endpoint = await lockVisibleEndpoint(tx, scope, input.endpointId);
  const now = deps.now();
  const rotated = await rotateSecret(
    { tx, temporal: deps.temporal },
    { kind: 'webhookEndpoint', ownerId: input.endpointId, accountId: scope.accountId, channelId: endpoint.channelId, rotationPeriodSeconds: input.rotationPeriodSeconds, now },
  );
  const row = await tx.webhookEndpoint.update({ where: { id: input.endpointId }, data: { updatedAt: now }, select: endpointSelect });
  return { row, secret: rotated.secret };
}
