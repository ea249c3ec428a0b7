import { formatDateTime } from '../domain/datetime';
import { EVENT_TYPES, type EventName } from '../domain/event-catalogue';
import { newId } from '../domain/ids';
import type { EventEnvelope } from '../domain/outbox-event';
import type { Prisma } from './client';

export interface NewEvent {
  accountId: string;
  channelId?: string | null;
  name: EventName;
  data: Record<string, unknown>;
  occurredAt: Date;
}

/**
 * Records an event in the caller's transaction: it commits with the change it reports or
 * not at all. Delivery reads committed rows only, so nothing is sent for a rolled-back change.
 */
export async function recordEvent(tx: Prisma.TransactionClient, event: NewEvent): Promise<EventEnvelope> {
  const id = newId('event', event.occurredAt.getTime());
  const eventType = EVENT_TYPES[event.name];
  await tx.outboxEvent.create({
    data: {
      id,
      accountId: event.accountId,
      channelId: event.channelId ?? null,
      eventType,
      occurredAt: event.occurredAt,
      data: event.data as Prisma.InputJsonValue,
    },
  });
  return { event_id: id, event_type: eventType, occurred_at: formatDateTime(event.occurredAt), data: event.data };
}
