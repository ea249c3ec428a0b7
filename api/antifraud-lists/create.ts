import { z } from 'zod';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { createList } from '../../services/antifraud-lists/create';
import { antifraudAction, antifraudField, antifraudListObject, listName, serializeList } from './schemas';

export const createListRequest = z.strictObject({
  name: listName,
  field: antifraudField,
  // Section 2.5 shows a list without `action`: a list created the spec's way blocks what it matches.
  action: antifraudAction.default('BLOCK'),
});

export const createAntifraudList = authorizedProcedure
  .meta(
    operation('antifraud-lists/create', {
      summary: 'Create an antifraud list',
      description: 'A list matches payments on one field and either allows or blocks them.',
    }),
  )
  .input(createListRequest)
  .output(antifraudListObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'antifraud-lists/create', input, (ctx) =>
      ctx.transaction(async (tx) => serializeList(await createList(ctx, tx, ctx.principal.accountId, input))),
    ),
  );
