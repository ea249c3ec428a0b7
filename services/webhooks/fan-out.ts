import { newId } from '../../domain/ids';
import type { Prisma } from '../../prisma/client';

type Db = Prisma.TransactionClient;

export interface FanOutEvent {
  id: string;
  accountId: string;
  channelId: string | null;
  eventType: string;
  occurredAt: Date;
}

/** Who makes a delivery's next attempt (docs/webhooks.md, "Delivery"; the `handler` column). */
export type DeliveryHandler = 'SENDER' | 'RETRY' | 'WORKFLOW';

/** An endpoint bound to a channel receives that channel's events only; one bound to none receives all. */
export function channelReceives(endpointChannelId: string | null, eventChannelId: string | null): boolean {
  return endpointChannelId === null || endpointChannelId === eventChannelId;
}

/** A PENDING delivery of `event` to `endpointId`, its next attempt due at `nextAttemptAt`, made by `handler`. */
export function pendingDeliveryRow(
  event: Pick<FanOutEvent, 'id' | 'accountId' | 'eventType'>,
  endpointId: string,
  nextAttemptAt: Date,
  now: Date,
  handler: DeliveryHandler,
) {
  return {
    id: newId('webhookDelivery', now.getTime()),
    accountId: event.accountId,
    endpointId,
    eventId: event.id,
    eventType: event.eventType,
    status: 'PENDING',
    handler,
    nextAttemptAt,
    createdAt: now,
    updatedAt: now,
  } as const;
}

/**
 * Queues the first delivery of each event to every ACTIVE endpoint of its account subscribed to
 * its type and its channel (docs/webhooks.md, "Dispatch"): PENDING rows for the sender, due at
 * the event's `occurred_at`. A pair that already has a delivery keeps it (unique on endpoint and
 * event). Returns how many deliveries it queued.
 */
export async function fanOutEvents(tx: Db, events: FanOutEvent[], now: Date): Promise<number> {
  const accountIds = [...new Set(events.map((e) => e.accountId))];
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { accountId: { in: accountIds }, status: 'ACTIVE', deletedAt: null },
    select: { id: true, accountId: true, channelId: true, eventTypes: true },
  });
  const rows = events.flatMap((event) =>
    endpoints
      .filter(
        (endpoint) =>
          endpoint.accountId === event.accountId && endpoint.eventTypes.includes(event.eventType) && channelReceives(endpoint.channelId, event.channelId),
      )
      .map((endpoint) => pendingDeliveryRow(event, endpoint.id, event.occurredAt, now, 'SENDER')),
  );
  if (rows.length === 0) return 0;
  return (await tx.webhookDelivery.createMany({ data: rows, skipDuplicates: true })).count;
}
