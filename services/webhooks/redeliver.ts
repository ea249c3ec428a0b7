import type { Client } from '@temporalio/client';
import type { ChannelScope } from '../../domain/channel-scope';
import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import { startRedelivery } from '../workflows/webhook-delivery';
import { deliverySelect } from './deliveries';
import { activeVisibleEndpoint, endpointVisible } from './endpoints';
import { channelReceives, pendingDeliveryRow } from './fan-out';

type Db = Prisma.TransactionClient;

export interface Redelivery {
  eventId: string;
  /** Left out: every active endpoint that has a delivery of the event. */
  endpointId?: string;
}

/**
 * Starts a new round of attempts of an event (docs/webhooks.md, "The delivery log and redelivery"): to the named
 * endpoint, or to every active endpoint that had a delivery of it. A delivery still PENDING is
 * left to its attempts. Returns the deliveries started, PENDING.
 */
export async function redeliverEvent({ tx, temporal }: { tx: Db; temporal: Client }, scope: ChannelScope, redelivery: Redelivery, now: Date) {
  const event = await tx.outboxEvent.findFirst({
    where: { id: redelivery.eventId, accountId: scope.accountId },
    select: { id: true, accountId: true, channelId: true, eventType: true },
  });
  // An event is visible as an endpoint of its channel would be.
  if (!event || !endpointVisible(scope, event.channelId)) throw ApiError.notFound('Event', redelivery.eventId);

  const targets = redelivery.endpointId ? [await explicitTarget(tx, scope, redelivery.endpointId, event.channelId)] : await pastTargets(tx, scope, event.id);
  if (targets.length === 0) {
    throw new ApiError('NOTHING_TO_REDELIVER', `No active endpoint has a delivery of ${event.id}; name one with endpoint_id.`);
  }
  const started: string[] = [];
  for (const target of targets) {
    await tx.$queryRaw`SELECT id FROM webhook_deliveries WHERE endpoint_id = ${target} AND event_id = ${event.id} FOR UPDATE`;
    const existing = await tx.webhookDelivery.findUnique({ where: { endpointId_eventId: { endpointId: target, eventId: event.id } } });
    if (existing?.status === 'PENDING') continue;
    const firstAttempt = (existing?.attemptCount ?? 0) + 1;
    if (existing) {
      await tx.webhookDelivery.update({
        where: { id: existing.id },
        data: { status: 'PENDING', handler: 'WORKFLOW', leaseUntil: null, nextAttemptAt: now, deliveredAt: null, updatedAt: now },
      });
    } else {
      await tx.webhookDelivery.create({ data: pendingDeliveryRow(event, target, now, now, 'WORKFLOW') });
    }
    // Before the commit, as everywhere: if the commit fails, the workflow finds no claim of its own and ends.
    const running = await startRedelivery(temporal, { accountId: scope.accountId, eventId: event.id, endpointId: target, firstAttempt, claim: now.toISOString() });
    // Committing PENDING with no workflow of this claim would leave the delivery PENDING for good.
    if (!running) {
      throw new ApiError('REDELIVERY_NOT_STARTED', `The redelivery of ${event.id} to ${target} could not start at this instant; retry.`, {
        endpoint_id: target,
      });
    }
    started.push(target);
  }
  if (started.length === 0) {
    throw new ApiError('DELIVERY_IN_PROGRESS', `Event ${event.id} is still being delivered; its attempts continue on their schedule.`);
  }
  return tx.webhookDelivery.findMany({
    where: { eventId: event.id, endpointId: { in: started } },
    orderBy: { id: 'asc' },
    select: deliverySelect,
  });
}

async function explicitTarget(tx: Db, scope: ChannelScope, id: string, eventChannelId: string | null): Promise<string> {
  const endpoint = await activeVisibleEndpoint(tx, scope, id);
  if (!channelReceives(endpoint.channelId, eventChannelId)) {
    throw new ApiError('EVENT_OUTSIDE_ENDPOINT_CHANNEL', `Webhook endpoint ${id} receives events of channel ${endpoint.channelId} only.`);
  }
  return endpoint.id;
}

async function pastTargets(tx: Db, scope: ChannelScope, eventId: string): Promise<string[]> {
  const deliveries = await tx.webhookDelivery.findMany({
    where: { eventId, accountId: scope.accountId, endpoint: { status: 'ACTIVE', deletedAt: null } },
    select: { endpointId: true, endpoint: { select: { channelId: true } } },
    orderBy: { id: 'asc' },
  });
  return deliveries.filter((d) => endpointVisible(scope, d.endpoint.channelId)).map((d) => d.endpointId);
}
