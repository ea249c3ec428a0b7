import { z } from 'zod';
import { resolveChannelScope } from '../auth/channel-scope';
import { channelIdField } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { createEndpoint } from '../../services/webhooks/create-endpoint';
import { DEFAULT_WEBHOOK_EVENT_TYPES, description, endpointUrl, eventTypes, serializeEndpoint, webhookEndpointObject } from './schemas';

export const createWebhookRequest = z.strictObject({
  url: endpointUrl,
  description: description.optional(),
  event_types: eventTypes.optional().meta({
    description:
      'The event_type values delivered to this endpoint. Left out: every type the platform has at creation; types added to the platform later are opt-in all the same (added with webhooks/patch).',
  }),
  channel_id: channelIdField.meta({
    description:
      'Receive events of this channel only. Left out: every channel for an account-level key, the key’s channel for a key bound to one.',
  }),
});

export const createWebhookResponse = webhookEndpointObject.extend({
  secret: z.string().meta({ description: 'The `wsec_…` signing secret. Shown only in this response.' }),
});

export const createWebhook = authorizedProcedure
  .meta(
    operation('webhooks/create', {
      summary: 'Create a webhook endpoint',
      description:
        'The endpoint starts INACTIVE: nothing is delivered until webhooks/patch sets status ACTIVE. Returns its signing secret once.',
    }),
  )
  .input(createWebhookRequest)
  .output(createWebhookResponse)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'webhooks/create', input, (ctx) =>
      ctx.transaction(async (tx) => {
        const scope = resolveChannelScope(ctx.principal, input.channel_id);
        const { row, secret } = await createEndpoint(ctx, tx, {
          accountId: ctx.principal.accountId,
          channelId: scope ? scope[0]! : null,
          url: input.url,
          description: input.description,
          eventTypes: input.event_types ?? DEFAULT_WEBHOOK_EVENT_TYPES,
        });
        return { ...serializeEndpoint(row), secret };
      }),
    ),
  );
