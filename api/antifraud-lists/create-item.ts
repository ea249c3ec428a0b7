import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { createItem } from '../../services/antifraud-lists/create-item';
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
    description: 'E-mail of the merchant’s user acting through their dashboard. Left out: the calling API key’s id.',
  }),
});

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
            createdBy: input.created_by ?? ctx.principal.apiKeyId,
          }),
        ),
      );
    }),
  );
