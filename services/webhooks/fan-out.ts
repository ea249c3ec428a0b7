import type { Client } from '@temporalio/client';
import { newId } from '../../domain/ids';
import type { Prisma } from '../../prisma/client';
import { startFirstDelivery } from '../workflows/webhook-delivery';

type Db = Prisma.TransactionClient;

/** Workflow starts in flight at once within one fan-out. */
const START_CONCURRENCY = 32;

export interface FanOutEvent {
  id: string;
  accountId: string;
  channelId: string | null;
  eventType: string;
  occurredAt: Date;
}

/** An endpoint bound to a channel receives that channel's events only; one bound to none receives all. */
export function channelReceives(endpointChannelId: string | null, eventChannelId: string | null): boolean {
  return endpointChannelId === null || endpointChannelId === eventChannelId;
}

/** A PENDING delivery of `event` to `endpointId`, its first attempt due at `nextAttemptAt`. */
export function pendingDeliveryRow(event: Pick<FanOutEvent, 'id' | 'accountId' | 'eventType'>, endpointId: string, nextAttemptAt: Date, now: Date) {
  return {
    id: newId('webhookDelivery', now.getTime()),
    accountId: event.accountId,
    endpointId,
    eventId: event.id,
    eventType: event.eventType,
    status: 'PENDING',
    nextAttemptAt,
    createdAt: now,
    updatedAt: now,
  } as const;
}

/**
 * Starts the first delivery of each event to every ACTIVE endpoint of its account subscribed to
 * its type and its channel (docs/webhooks.md, "Dispatch"), as workflow `<event>/delivery/<endpoint>`,
 * and records the deliveries. An event already delivered to an endpoint is not started again.
 *
 * The workflows start before the caller commits: a crash after it cannot leave a dispatched event
 * with nobody delivering it, and a crash before it leaves the events for the next run, whose starts
 * of the same ids are refused as duplicates.
 *
 * `eagerStart`: the client is on the worker's own NativeConnection (services/workflows/webhook-delivery.ts).
 */
export async function fanOutEvents(
  { tx, temporal, eagerStart }: { tx: Db; temporal: Client; eagerStart?: boolean },
  events: FanOutEvent[],
  now: Date,
): Promise<void> {
  const accountIds = [...new Set(events.map((e) => e.accountId))];
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { accountId: { in: accountIds }, status: 'ACTIVE', deletedAt: null },
    select: { id: true, accountId: true, channelId: true, eventTypes: true },
  });
  const known = await tx.webhookDelivery.findMany({ where: { eventId: { in: events.map((e) => e.id) } }, select: { eventId: true, endpointId: true } });
  const delivered = new Set(known.map((d) => `${d.eventId} ${d.endpointId}`));

  const deliveries = events.flatMap((event) =>
    endpoints
      .filter(
        (endpoint) =>
          endpoint.accountId === event.accountId &&
          endpoint.eventTypes.includes(event.eventType) &&
          channelReceives(endpoint.channelId, event.channelId) &&
          !delivered.has(`${event.id} ${endpoint.id}`),
      )
      .map((endpoint) => ({ event, endpointId: endpoint.id })),
  );

  await forEachLimited(deliveries, START_CONCURRENCY, ({ event, endpointId }) =>
    startFirstDelivery(temporal, { eventId: event.id, endpointId, occurredAt: event.occurredAt }, { eager: eagerStart }),
  );
  await tx.webhookDelivery.createMany({
    data: deliveries.map(({ event, endpointId }) => pendingDeliveryRow(event, endpointId, event.occurredAt, now)),
    skipDuplicates: true,
  });
}

async function forEachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}
