import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { createItem } from '../../services/antifraud-lists/create-item';
import type { Principal } from '../auth/principal';
import { dateTime } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { antifraudId, antifraudListItemObject, createdByEmail, serializeItem } from './schemas';

export const createItemRequest = z.strictObject({
  list_id: antifraudId,
  field_value: z
    .string()
    .trim()
    .min(1)
    .regex(/\S/)
    .max(254)
    .meta({ description: 'Validated for the list’s field (docs/antifraud.md) and stored normalised.' }),
  expired_at: dateTime.optional().meta({ description: 'Must be in the future. Left out: the item never expires.' }),
  description: z.string().max(500).optional(),
  created_by: createdByEmail.optional().meta({
    description: 'E-mail of the merchant’s user the call is made for. Left out: the signed-in dashboard user’s, or none for an API key (the key is in `created_by_api_key_id`).',
  }),
});

/** Section 2.5 names a user by e-mail; the key that made a call is kept beside it, never in its place. */
function creatorOf(principal: Principal, named: string | undefined) {
  if (principal.user) return { createdBy: named ?? principal.user.email.toLowerCase(), createdByApiKeyId: undefined };
  return { createdBy: named, createdByApiKeyId: principal.apiKeyId };
}

export const createAntifraudListItem = authorizedProcedure
  .meta(
    operation('antifraud-lists/create-item', {
      summary: 'Add an item to an antifraud list',
    }),
  )
  .input(createItemRequest)
  .output(antifraudListItemObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'antifraud-lists/create-item', input, (ctx) => {
      // Checked inside, so a retry of an accepted request replays it even once expired_at has passed.
      const now = ctx.now();
      const expiredAt = input.expired_at === undefined ? undefined : new Date(input.expired_at);
      if (expiredAt && expiredAt <= now) {
        throw ApiError.validation({ expired_at: { type: 'MIN', message: 'Must be in the future.' } });
      }
      return ctx.transaction(async (tx) =>
        serializeItem(
          await createItem({ now: () => now }, tx, ctx.principal.accountId, {
            listId: input.list_id,
            fieldValue: input.field_value,
            expiredAt,
            description: input.description,
            ...creatorOf(ctx.principal, input.created_by),
          }),
        ),
      );
    }),
  );
