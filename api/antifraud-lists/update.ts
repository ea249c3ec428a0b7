import { z } from 'zod';
import { updateList } from '../../services/antifraud-lists/update';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { antifraudAction, antifraudId, antifraudListObject, listName, serializeList } from './schemas';

/** `field` is fixed at creation: every item was validated and normalised for it. */
export const updateListRequest = z
  .strictObject({
    id: antifraudId,
    name: listName.optional(),
    action: antifraudAction.optional(),
  })
  .refine((request) => request.name !== undefined || request.action !== undefined, {
    message: 'Give `name`, `action` or both.',
    params: { type: 'REQUIRED' },
  })
  .meta({ anyOf: [{ required: ['name'] }, { required: ['action'] }] });

export const updateAntifraudList = authorizedProcedure
  .meta(
    operation('antifraud-lists/update', {
      summary: 'Rename an antifraud list or change its action',
      description:
        'Only `name` and `action` may change; `field` is fixed. A new action applies to the next screened payment.',
    }),
  )
  .input(updateListRequest)
  .output(antifraudListObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'antifraud-lists/update', input, (ctx) =>
      ctx.transaction(async (tx) => {
        const { id, ...changes } = input;
        return serializeList(await updateList(ctx, tx, ctx.principal.accountId, id, changes));
      }),
    ),
  );
