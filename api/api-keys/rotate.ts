import { z } from 'zod';
import { MAX_ROTATION_PERIOD_SECONDS } from '../../domain/secret-rotation';
import { rotateApiKeySecret } from '../../services/api-keys/rotate';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { apiKeyId, apiKeyObject, serializeApiKey } from './schemas';

export const rotateApiKeyRequest = z.strictObject({
  id: apiKeyId,
  rotation_period: z
    .number()
    .int()
    .min(0)
    .max(MAX_ROTATION_PERIOD_SECONDS)
    .meta({ description: 'Seconds during which the previous secret keeps working. 0 revokes it at once.' }),
});

export const rotateApiKeyResponse = apiKeyObject.extend({
  rotate_secret: z.string().meta({ description: 'The new `asec_…` secret. Shown only in this response.' }),
});

export const rotateApiKey = authorizedProcedure
  .meta(
    operation('api-keys/rotate', {
      summary: 'Rotate the secret of an API key',
      description:
        'Issues a new secret, valid at once. The previous one stays valid for `rotation_period` seconds, then a durable workflow deactivates it. Rotating again during an overlap revokes the oldest secret immediately. A key can rotate only keys whose permissions it holds all of itself: 403 PERMISSION_DENIED with `context.permissions` otherwise.',
      accountLevelOnly: true,
    }),
  )
  .input(rotateApiKeyRequest)
  .output(rotateApiKeyResponse)
  .mutation(async ({ ctx, input }) => {
    const rotated = await withIdempotency(ctx, 'api-keys/rotate', input, (ctx) =>
      ctx.transaction(async (tx) => {
        const { row, secret } = await rotateApiKeySecret(ctx, tx, ctx.principal, { apiKeyId: input.id, rotationPeriodSeconds: input.rotation_period });
        return { ...serializeApiKey(row), rotate_secret: secret };
      }),
    );
    // A period of 0 or a second rotation revoked a secret: this process stops accepting it now.
    ctx.secretCache?.forgetApiKey(input.id);
    return rotated;
  });
