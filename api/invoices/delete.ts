import { z } from 'zod';
import { deleteDraft } from '../../services/invoices/delete';
import { operationScope } from '../auth/channel-scope';
import { channelIdField } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { invoiceId } from './schemas';

export const deleteInvoiceRequest = z.strictObject({ id: invoiceId, channel_id: channelIdField });

export const deleteInvoiceResponse = z.object({ id: z.string(), deleted: z.literal(true) });

export const deleteInvoice = authorizedProcedure
  .meta(
    operation('invoices/delete', {
      summary: 'Delete a draft invoice',
      description:
        'DRAFT only. The invoice is 404 afterwards and left out of lists and reports. Emits InvoiceDeleted (section 6.2 payload).',
    }),
  )
  .input(deleteInvoiceRequest)
  .output(deleteInvoiceResponse)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'invoices/delete', input, (ctx) =>
      ctx.transaction((tx) => deleteDraft(ctx, tx, operationScope(ctx.principal, input.channel_id), input.id)),
    ),
  );
