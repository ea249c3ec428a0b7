import { z } from 'zod';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { cancelPendingDeliveries, endpointSelect, lockVisibleEndpoint } from '../../services/webhooks/endpoints';
import { assertUrlFree } from './repository';
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
  });

export const patchWebhook = authorizedProcedure
  .meta(
    operation('webhooks/patch', {
      summary: 'Update a webhook endpoint',
      description:
        'Changes only the fields given. event_types and status apply to events committed from then on; every attempt reads the endpoint afresh, so a new URL applies to retries of deliveries already under way. 422 ENDPOINT_ALREADY_EXISTS when the new URL is taken.',
    }),
  )
  .input(patchWebhookRequest)
  .output(webhookEndpointObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'webhooks/patch', input, (ctx) =>
      ctx.transaction(async (tx) => {
        const row = await lockVisibleEndpoint(tx, ctx.principal, input.id);
        const now = ctx.now();
        if (input.url !== undefined && input.url !== row.url) await assertUrlFree(tx, ctx.principal.accountId, input.url, row.id);
        const activating = input.status === 'ACTIVE' && row.status !== 'ACTIVE';
        const deactivating = input.status === 'INACTIVE' && row.status !== 'INACTIVE';
        const saved = await tx.webhookEndpoint.update({
          where: { id: row.id },
          data: {
            ...(input.url !== undefined ? { url: input.url } : {}),
            ...(input.description !== undefined ? { description: input.description } : {}),
            ...(input.event_types !== undefined ? { eventTypes: input.event_types } : {}),
            ...(input.status !== undefined ? { status: input.status } : {}),
            // A fresh start: an endpoint re-enabled after being DISABLED gets the full 3 days again.
            ...(activating || deactivating ? { disabledReason: null, failingSince: null } : {}),
            updatedAt: now,
          },
          select: endpointSelect,
        });
        if (deactivating) await cancelPendingDeliveries(tx, row.id, now);
        return serializeEndpoint(saved);
      }),
    ),
  );
