import { z } from 'zod';
import { MAX_ROTATION_PERIOD_SECONDS } from '../../domain/secret-rotation';
import { rotateEndpointSecret } from '../../services/webhooks/rotate-key';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { endpointId, serializeEndpoint, webhookEndpointObject } from './schemas';

export const rotateWebhookKeyRequest = z.strictObject({
  id: endpointId,
  rotation_period: z
    .number()
    .int()
    .min(0)
    .max(MAX_ROTATION_PERIOD_SECONDS)
    .meta({ description: 'Seconds during which the previous secret keeps signing deliveries. 0 switches to the new secret at once.' }),
});

export const rotateWebhookKeyResponse = webhookEndpointObject.extend({
  rotate_secret: z.string().meta({ description: 'The new `wsec_…` secret. Shown only in this response.' }),
});

export const rotateWebhookKey = authorizedProcedure
  .meta(
    operation('webhooks/rotate-key', {
      summary: 'Rotate the signing secret of a webhook endpoint',
      description:
        'Issues a new secret. During `rotation_period` seconds deliveries are still signed with the previous secret, so a receiver that already accepts both (or still only the previous one) keeps verifying; then a durable workflow retires the previous secret and every delivery is signed with the new one. Rotating again during an overlap retires the oldest secret at once.',
    }),
  )
  .input(rotateWebhookKeyRequest)
  .output(rotateWebhookKeyResponse)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'webhooks/rotate-key', input, (ctx) =>
      ctx.transaction(async (tx) => {
        const { row, secret } = await rotateEndpointSecret(ctx, tx, ctx.principal, { endpointId: input.id, rotationPeriodSeconds: input.rotation_period });
        return { ...serializeEndpoint(row), rotate_secret: secret };
      }),
    ),
  );
