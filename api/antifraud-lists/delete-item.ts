import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { assertAntifraudEnabled } from './guard';
import { deleteItem } from './repository';
import { antifraudId, antifraudListItemObject, serializeItem } from './schemas';

export const deleteItemRequest = z.strictObject({ id: antifraudId });

export const deleteAntifraudListItem = authorizedProcedure
  .meta(
    operation('antifraud-lists/delete-item', {
      summary: 'Remove an item from its antifraud list',
      description: 'The item is deleted for good and stops matching at once; the response is the item as it was.',
    }),
  )
  .input(deleteItemRequest)
  .output(antifraudListItemObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'antifraud-lists/delete-item', input, (ctx) =>
      ctx.transaction(async (tx) => {
        await assertAntifraudEnabled(tx, ctx.principal.accountId);
        const row = await deleteItem(tx, ctx.principal.accountId, input.id);
        if (!row) throw ApiError.notFound('Antifraud list item', input.id);
        return serializeItem(row);
      }),
    ),
  );
