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
  // One statement over arrays, not Prisma's createMany: its per-row query building cost ten times
  // the CPU of this for a batch (docs/benchmarks.md, bench:webhooks). `ON CONFLICT DO NOTHING`
  // keeps the pair's existing delivery, as skipDuplicates did.
  return tx.$executeRaw`
    INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event_id, event_type, status, handler, next_attempt_at, created_at, updated_at)
    SELECT v.id, v.account_id, v.endpoint_id, v.event_id, v.event_type, 'PENDING', 'SENDER', v.next_attempt_at, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.accountId)}::text[], ${rows.map((r) => r.endpointId)}::text[],
                ${rows.map((r) => r.eventId)}::text[], ${rows.map((r) => r.eventType)}::text[], ${rows.map((r) => r.nextAttemptAt.toISOString())}::timestamptz[])
      AS v(id, account_id, endpoint_id, event_id, event_type, next_attempt_at)
    ON CONFLICT DO NOTHING`;
}
