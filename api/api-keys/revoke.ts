import { z } from 'zod';
import { endRevokedKeyRotation, revokeApiKey as revokeApiKeyService } from '../../services/api-keys/revoke';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { apiKeyId, apiKeyObject, serializeApiKey } from './schemas';

export const revokeApiKeyRequest = z.strictObject({ id: apiKeyId });

export const revokeApiKey = authorizedProcedure
  .meta(
    operation('api-keys/revoke', {
      summary: 'Revoke an API key',
      description:
        'Extension of the spec (docs/api-keys.md). ACTIVE → REVOKED, for good: every secret of the key stops authenticating at once, the previous one of a rotation in progress included, and the rotation ends. A key may revoke itself. A key can revoke only keys whose permissions it holds all of itself: 403 PERMISSION_DENIED with `context.permissions` otherwise. Already REVOKED: 422 INCOMPATIBLE_STATUS with `context.status`. Emits no event (section 6.2 has none for API keys).',
      accountLevelOnly: true,
    }),
  )
  .input(revokeApiKeyRequest)
  .output(apiKeyObject)
  .mutation(async ({ ctx, input }) => {
    const revoked = await withIdempotency(ctx, 'api-keys/revoke', input, (ctx) =>
      ctx.transaction(async (tx) => serializeApiKey(await revokeApiKeyService(ctx, tx, ctx.principal, { apiKeyId: input.id }))),
    );
    // This process refuses the key's secrets from the next request on; other API processes within their cache TTL.
    ctx.secretCache?.forgetApiKey(input.id);
    await endRevokedKeyRotation(ctx, input.id);
    return revoked;
  });
