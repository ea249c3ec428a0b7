import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { webhookDeliveryWorkflowId } from '../../domain/workflow-ids';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation, type AuthorizedContext, type Transaction } from '../trpc';
import { startWebhookDelivery, webhookRedeliveryWorkflowId } from './delivery-workflow';
import { endpointVisible, visibleEndpoint } from './repository';
import { deliverySelect, endpointId, eventId, serializeDelivery, webhookDeliveryObject } from './schemas';

export const redeliverWebhookRequest = z.strictObject({
  event_id: eventId,
  endpoint_id: endpointId.optional().meta({
    description: 'Send to this endpoint, even one that never received the event. Left out: every active endpoint that has a delivery of it.',
  }),
});

export const redeliverWebhookResponse = z.object({
  items: z.array(webhookDeliveryObject).meta({ description: 'The deliveries started again, PENDING.' }),
});

export const redeliverWebhook = authorizedProcedure
  .meta(
    operation('webhooks/redeliver', {
      summary: 'Deliver an event again',
      description:
        'Starts a new round of attempts with the same event_id in the body (receivers deduplicate on it), on the full retry schedule; attempt numbers continue the delivery’s. 422 ENDPOINT_NOT_ACTIVE, EVENT_OUTSIDE_ENDPOINT_CHANNEL, DELIVERY_IN_PROGRESS (a delivery of it is still PENDING), NOTHING_TO_REDELIVER, REDELIVERY_NOT_STARTED (retry).',
    }),
  )
  .input(redeliverWebhookRequest)
  .output(redeliverWebhookResponse)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'webhooks/redeliver', input, (ctx) =>
      ctx.transaction(async (tx) => {
        const event = await tx.outboxEvent.findFirst({
          where: { id: input.event_id, accountId: ctx.principal.accountId },
          select: { id: true, channelId: true },
        });
        // An event is visible as an endpoint of its channel would be.
        if (!event || !endpointVisible(ctx.principal, event.channelId)) throw ApiError.notFound('Event', input.event_id);

        const targets = input.endpoint_id ? [await explicitTarget(tx, ctx, input.endpoint_id, event.channelId)] : await pastTargets(tx, ctx, event.id);
        if (targets.length === 0) {
          throw new ApiError('NOTHING_TO_REDELIVER', `No active endpoint has a delivery of ${event.id}; name one with endpoint_id.`);
        }
        const now = ctx.now();
        const started: string[] = [];
        for (const target of targets) {
          await tx.$queryRaw`SELECT id FROM webhook_deliveries WHERE endpoint_id = ${target} AND event_id = ${event.id} FOR UPDATE`;
          const existing = await tx.webhookDelivery.findUnique({ where: { endpointId_eventId: { endpointId: target, eventId: event.id } } });
          if (existing?.status === 'PENDING') continue;
          const firstAttempt = (existing?.attemptCount ?? 0) + 1;
          if (existing) {
            await tx.webhookDelivery.update({
              where: { id: existing.id },
              data: { status: 'PENDING', nextAttemptAt: now, deliveredAt: null, updatedAt: now },
            });
          } else {
            const full = await tx.outboxEvent.findUniqueOrThrow({ where: { id: event.id }, select: { eventType: true } });
            await tx.webhookDelivery.create({
              data: {
                id: newId('webhookDelivery', now.getTime()),
                accountId: ctx.principal.accountId,
                endpointId: target,
                eventId: event.id,
                eventType: full.eventType,
                status: 'PENDING',
                nextAttemptAt: now,
                createdAt: now,
                updatedAt: now,
              },
            });
          }
          // Before the commit, as everywhere: if the commit fails, the workflow finds no claim of its own and ends.
          const claim = now.toISOString();
          const workflowId = webhookRedeliveryWorkflowId(webhookDeliveryWorkflowId(event.id, target), firstAttempt, claim);
          const running = await startWebhookDelivery(ctx.temporal, workflowId, { eventId: event.id, endpointId: target, firstAttempt, claim, redelivery: true });
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
        const rows = await tx.webhookDelivery.findMany({
          where: { eventId: event.id, endpointId: { in: started } },
          orderBy: { id: 'asc' },
          select: deliverySelect,
        });
        return { items: rows.map(serializeDelivery) };
      }),
    ),
  );

async function explicitTarget(tx: Transaction, ctx: AuthorizedContext, id: string, eventChannelId: string | null): Promise<string> {
  const endpoint = await visibleEndpoint(tx, ctx.principal, id);
  if (endpoint.status !== 'ACTIVE') {
    throw new ApiError('ENDPOINT_NOT_ACTIVE', `Webhook endpoint ${id} is ${endpoint.status}; patch it to ACTIVE first.`, { status: endpoint.status });
  }
  if (endpoint.channelId !== null && endpoint.channelId !== eventChannelId) {
    throw new ApiError('EVENT_OUTSIDE_ENDPOINT_CHANNEL', `Webhook endpoint ${id} receives events of channel ${endpoint.channelId} only.`);
  }
  return endpoint.id;
}

async function pastTargets(tx: Transaction, ctx: AuthorizedContext, eventId: string): Promise<string[]> {
  const deliveries = await tx.webhookDelivery.findMany({
    where: { eventId, accountId: ctx.principal.accountId, endpoint: { status: 'ACTIVE', deletedAt: null } },
    select: { endpointId: true, endpoint: { select: { channelId: true } } },
    orderBy: { id: 'asc' },
  });
  return deliveries.filter((d) => endpointVisible(ctx.principal, d.endpoint.channelId)).map((d) => d.endpointId);
}
