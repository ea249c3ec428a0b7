import { z } from 'zod';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { patchEndpoint } from '../../services/webhooks/patch-endpoint';
import { retryOnWriteConflict } from '../../prisma/write-conflict-retry';
import { description, endpointId, endpointUrl, eventTypes, serializeEndpoint, webhookEndpointObject } from './schemas';

export const patchWebhookRequest = z
  .strictObject({
    id: endpointId,
    url: endpointUrl.optional(),
    description: description.nullable().optional().meta({ description: 'null removes it.' }),
    event_types: eventTypes.optional().meta({ description: 'Replaces the whole list.' }),
    status: z.enum(['ACTIVE', 'INACTIVE']).optional().meta({
      description: 'ACTIVE starts deliveries (and re-enables a DISABLED endpoint); INACTIVE stops them and cancels those still pending.',
    }),
  })
  .refine((patch) => Object.keys(patch).some((key) => key !== 'id'), {
    message: 'Give at least one of url, description, event_types, status.',
    params: { type: 'REQUIRED' },
  })
  .meta({ anyOf: [{ required: ['url'] }, { required: ['description'] }, { required: ['event_types'] }, { required: ['status'] }] });

export const patchWebhook = authorizedProcedure
  .meta(
    operation('webhooks/patch', {
      summary: 'Update a webhook endpoint',
      description:
        'Changes only the fields given. event_types and status apply to events committed from then on; every attempt reads the endpoint afresh, so a new URL applies to retries of deliveries already under way.',
    }),
  )
  .input(patchWebhookRequest)
  .output(webhookEndpointObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'webhooks/patch', input, (ctx) =>
      retryOnWriteConflict(() =>
        ctx.transaction(async (tx) =>
          serializeEndpoint(
            await patchEndpoint(ctx, tx, ctx.principal, input.id, {
              url: input.url,
              description: input.description,
              eventTypes: input.event_types,
              status: input.status,
            }),
          ),
        ),
      ),
    ),
  );
