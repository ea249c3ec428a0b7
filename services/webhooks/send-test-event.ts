import type { ChannelScope } from '../../domain/channel-scope';
import type { Prisma } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import { deliverySelect } from './deliveries';
import { activeVisibleEndpoint } from './endpoints';
import { pendingDeliveryRow } from './fan-out';
import { checkTestEventQuota } from './test-event-quota';

type Db = Prisma.TransactionClient;

/**
 * webhooks/send-test-event (docs/webhooks.md, "Test events"): a `WEBHOOK_TEST` event in the
 * outbox, of the endpoint's channel, already marked dispatched so the dispatcher never fans it
 * out to other endpoints, with one PENDING delivery to this endpoint for the sender. From there
 * it is any delivery: signed, logged, retried, redeliverable. ACTIVE endpoints only (422
 * ENDPOINT_NOT_ACTIVE), since the sender sends to no other, and TEST_EVENTS_PER_ENDPOINT a minute
 * (429 RATE_LIMIT). Returns the delivery.
 */
export async function sendTestEvent(tx: Db, scope: ChannelScope, endpointId: string, now: Date) {
  const endpoint = await activeVisibleEndpoint(tx, scope, endpointId);
  await checkTestEventQuota(tx, endpoint.id, now);
  const event = await recordEvent(tx, {
    accountId: scope.accountId,
    channelId: endpoint.channelId,
    name: 'WebhookTest',
    data: { webhook_endpoint_id: endpoint.id },
    occurredAt: now,
  });
  await tx.outboxEvent.update({ where: { id: event.event_id }, data: { dispatchedAt: now } });
  const row = pendingDeliveryRow({ id: event.event_id, accountId: scope.accountId, eventType: event.event_type }, endpoint.id, now, now, 'SENDER');
  return tx.webhookDelivery.create({ data: row, select: deliverySelect });
}
