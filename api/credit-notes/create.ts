import { createCreditNote as createCreditNoteService } from '../../services/credit-notes/create';
import { operationScope } from '../auth/channel-scope';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { CREATE_REFUSALS, creditNoteInputOf, creditNoteObject, creditNoteRequest } from './schemas';

export const createCreditNote = authorizedProcedure
  .meta(
    operation('credit-notes/create', {
      summary: 'Issue a credit note',
      description: `Credits a finalized invoice (OPEN, DUNNING, UNPAID or PAID) by a lump sum or by line. The part covering what is still owed lowers amount_due (nothing left: the invoice is PAID); the rest is split as asked between a refund, a credit to the customer balance and out of band. Numbered per account without gaps. Emits CREDIT_NOTE_CREATED (opt-in). ${CREATE_REFUSALS}`,
    }),
  )
  .input(creditNoteRequest)
  .output(creditNoteObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'credit-notes/create', input, (ctx) =>
      createCreditNoteService(ctx, operationScope(ctx.principal, input.channel_id), creditNoteInputOf(input), ctx.transaction),
    ),
  );
