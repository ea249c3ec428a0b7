import { z } from 'zod';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { deleteEndpoint } from '../../services/webhooks/delete-endpoint';
import { endpointId } from './schemas';

export const deleteWebhookRequest = z.strictObject({ id: endpointId });
export const deleteWebhookResponse = z.object({ id: z.string(), deleted: z.literal(true) });

export const deleteWebhook = authorizedProcedure
  .meta(
    operation('webhooks/delete', {
      summary: 'Delete a webhook endpoint',
      description:
        'Stops deliveries at once: pending ones become CANCELLED. The endpoint is 404 afterwards, its URL free for a new endpoint; its delivery log stays readable through webhooks/list-deliveries by event_id.',
    }),
  )
  .input(deleteWebhookRequest)
  .output(deleteWebhookResponse)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'webhooks/delete', input, (ctx) =>
      ctx.transaction(async (tx) => ({ id: await deleteEndpoint(ctx, tx, ctx.principal, input.id), deleted: true as const })),
    ),
  );
