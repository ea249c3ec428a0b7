import { z } from 'zod';
import { deleteItem } from '../../services/antifraud-lists/delete-item';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
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
      ctx.transaction(async (tx) => serializeItem(await deleteItem(tx, ctx.principal.accountId, input.id))),
    ),
  );
