import { z } from 'zod';
import { createApiKey as createApiKeyService } from '../../services/api-keys/create';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { prefixedId } from '../common/schemas';
import { apiKeyObject, permission, serializeApiKey } from './schemas';

export const createApiKeyRequest = z.strictObject({
  name: z.string().trim().min(1).regex(/\S/).max(100),
  description: z.string().max(500).optional(),
  channel_ids: z
    .array(prefixedId('channel'))
    .max(50)
    .refine((ids) => new Set(ids).size === ids.length, { message: 'Channel ids must be unique.', params: { type: 'INVALID' } })
    .meta({ uniqueItems: true })
    .optional()
    .meta({ description: 'Channels the key is bound to. Leave out for an account-level key.' }),
  permissions: z
    .array(permission)
    .min(1)
    .refine((p) => new Set(p).size === p.length, { message: 'Permissions must be unique.', params: { type: 'INVALID' } })
    .meta({ uniqueItems: true }),
});

export const createApiKeyResponse = apiKeyObject.extend({
  secret: z.string().meta({ description: 'The `asec_…` secret. Shown only in this response; store it now.' }),
});

export const createApiKey = authorizedProcedure
  .meta(
    operation('api-keys/create', {
      summary: 'Create an API key',
      description:
        'Requires an account-level key. A key can grant only permissions it holds itself.',
      accountLevelOnly: true,
    }),
  )
  .input(createApiKeyRequest)
  .output(createApiKeyResponse)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'api-keys/create', input, (ctx) =>
      ctx.transaction(async (tx) => {
        const { row, secret } = await createApiKeyService(ctx, tx, ctx.principal, {
          name: input.name,
          description: input.description,
          channelIds: input.channel_ids ?? [],
          permissions: input.permissions,
        });
        return { ...serializeApiKey(row), secret };
      }),
    ),
  );
