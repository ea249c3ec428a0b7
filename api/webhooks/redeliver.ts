import { z } from 'zod';
import { redeliverEvent } from '../../services/webhooks/redeliver';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { endpointId, eventId, serializeDelivery, webhookDeliveryObject } from './schemas';

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
        'Starts a new round of attempts with the same event_id in the body (receivers deduplicate on it), on the full retry schedule; attempt numbers continue the delivery’s.',
    }),
  )
  .input(redeliverWebhookRequest)
  .output(redeliverWebhookResponse)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'webhooks/redeliver', input, (ctx) =>
      ctx.transaction(async (tx) => {
        const rows = await redeliverEvent({ tx, temporal: ctx.temporal }, ctx.principal, { eventId: input.event_id, endpointId: input.endpoint_id }, ctx.now());
        return { items: rows.map(serializeDelivery) };
      }),
    ),
  );
