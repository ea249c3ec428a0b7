import { z } from 'zod';
import { normaliseFieldValue } from '../../domain/antifraud';
import { ApiError } from '../../domain/errors';
import { dateTime } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { assertAntifraudEnabled } from './guard';
import { findLiveItem, insertItem, lockList } from './repository';
import { antifraudId, antifraudListItemObject, createdByEmail, fieldValueProblem, serializeItem } from './schemas';

export const createItemRequest = z.strictObject({
  list_id: antifraudId,
  field_value: z
    .string()
    .trim()
    .min(1)
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
      description:
        '422 ITEM_ALREADY_EXISTS when an unexpired item of the list holds the same normalised value; 422 INCOMPATIBLE_STATUS when antifraud is disabled.',
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
      return ctx.transaction(async (tx) => {
        const accountId = ctx.principal.accountId;
        await assertAntifraudEnabled(tx, accountId);
        const list = await lockList(tx, accountId, input.list_id);
        if (!list) throw ApiError.notFound('Antifraud list', input.list_id);
        const problem = fieldValueProblem(list.field, input.field_value);
        if (problem) throw ApiError.validation({ field_value: problem });

        const fieldValue = normaliseFieldValue(list.field, input.field_value);
        const existing = await findLiveItem(tx, list.id, fieldValue, now);
        if (existing) {
          throw new ApiError('ITEM_ALREADY_EXISTS', 'The list already holds this value.', { item_id: existing.id, field_value: fieldValue });
        }
        const row = await insertItem(tx, {
          accountId,
          listId: list.id,
          fieldValue,
          expiredAt,
          description: input.description,
          createdBy: input.created_by ?? ctx.principal.apiKeyId,
          now,
        });
        return serializeItem(row);
      });
    }),
  );
