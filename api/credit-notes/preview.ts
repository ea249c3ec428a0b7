import { previewCreditNote as previewCreditNoteService } from '../../services/credit-notes/preview';
import { operationScope } from '../auth/channel-scope';
import { authorizedProcedure, operation } from '../trpc';
import { CREATE_REFUSALS, creditNoteInputOf, creditNotePreviewObject, creditNoteRequest } from './schemas';

export const previewCreditNote = authorizedProcedure
  .meta(
    operation('credit-notes/preview', {
      summary: 'Preview a credit note',
      description: `The credit note credit-notes/create would issue with this body now: lines, tax, where its money goes and the invoice’s amount_due after it. Writes nothing. ${CREATE_REFUSALS}`,
    }),
  )
  .input(creditNoteRequest)
  .output(creditNotePreviewObject)
  .query(({ ctx, input }) => previewCreditNoteService(ctx, operationScope(ctx.principal, input.channel_id), creditNoteInputOf(input)));
