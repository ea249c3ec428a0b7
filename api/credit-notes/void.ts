import { z } from 'zod';
import { voidCreditNote as voidCreditNoteService } from '../../services/credit-notes/void';
import { operationScope } from '../auth/channel-scope';
import { channelIdField } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { creditNoteId, creditNoteObject } from './schemas';

export const voidCreditNote = authorizedProcedure
  .meta(
    operation('credit-notes/void', {
      summary: 'Void a credit note',
      description:
        'Undoes an ISSUED credit note’s money movement and marks it VOIDED; its number stays taken. Emits CREDIT_NOTE_VOIDED (opt-in). docs/credit-notes.md.',
    }),
  )
  .input(z.strictObject({ id: creditNoteId, channel_id: channelIdField }))
  .output(creditNoteObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'credit-notes/void', input, (ctx) =>
      ctx.transaction((tx) => voidCreditNoteService(ctx, tx, operationScope(ctx.principal, input.channel_id), input.id)),
    ),
  );
