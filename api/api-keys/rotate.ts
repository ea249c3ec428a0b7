import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { MAX_ROTATION_PERIOD_SECONDS } from '../../domain/secret-rotation';
import { rotateSecret } from '../../services/secrets/rotation';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { requireWithinCallerPermissions } from './permission-ceiling';
import { lockApiKey, recordRotation } from './repository';
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
        const target = await lockApiKey(tx, ctx.principal.accountId, input.id);
        if (!target) throw ApiError.notFound('API key', input.id);
        requireWithinCallerPermissions(
          ctx.principal,
          target.permissions,
          'An API key cannot rotate a key holding permissions it does not hold itself: the new secret would hand them over.',
        );
        const now = ctx.now();
        const rotated = await rotateSecret(
          { tx, temporal: ctx.temporal },
          { kind: 'apiKey', ownerId: input.id, rotationPeriodSeconds: input.rotation_period, now },
        );
        const row = await recordRotation(tx, input.id, rotated.expiresAt, now);
        return { ...serializeApiKey(row), rotate_secret: rotated.secret };
      }),
    );
    // A period of 0 or a second rotation revoked a secret: this process stops accepting it now.
    ctx.secretCache?.forgetApiKey(input.id);
    return rotated;
  });
