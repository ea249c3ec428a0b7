import { z } from 'zod';
import { sendTestEvent } from '../../services/webhooks/send-test-event';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { endpointId, serializeDelivery, webhookDeliveryObject } from './schemas';

export const sendTestEventRequest = z.strictObject({ id: endpointId });

export const sendTestWebhookEvent = authorizedProcedure
  .meta(
    operation('webhooks/send-test-event', {
      summary: 'Send a test event to a webhook endpoint',
      description:
        'Extension of the spec (docs/webhooks.md, "Test events"). Records one WEBHOOK_TEST event, `data.webhook_endpoint_id`, for this endpoint only (whatever its event_types) and delivers it as every event is: signed, in the delivery log, retried, redeliverable. Returns its delivery, PENDING. 422 ENDPOINT_NOT_ACTIVE with `context.status` when the endpoint is not ACTIVE: nothing is sent to an INACTIVE or DISABLED endpoint.',
    }),
  )
  .input(sendTestEventRequest)
  .output(webhookDeliveryObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'webhooks/send-test-event', input, (ctx) =>
      ctx.transaction(async (tx) => serializeDelivery(await sendTestEvent(tx, ctx.principal, input.id, ctx.now()))),
    ),
  );
