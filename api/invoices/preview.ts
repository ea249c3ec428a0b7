import { previewInvoices } from '../../services/invoice-preview/preview';
import { operationScope } from '../auth/channel-scope';
import { authorizedProcedure, operation } from '../trpc';
import { invoicePreviewRequest, invoicePreviewResponse } from './preview-schemas';

export const previewInvoice = authorizedProcedure
  .meta(
    operation('invoices/preview', {
      summary: 'Preview a subscription’s upcoming invoices',
      description:
        'Extension (docs/invoice-preview.md). The next cycle’s invoice of a subscription, and with a proposed subscriptions/update body the invoice that update would issue now and the next cycle after it: lines, discounts, tax, totals, amount_due, computed by the code that bills. Writes nothing, records no event, tells no workflow. 404 for a subscription the key cannot see; a proposed update is refused with subscriptions/update’s 400s and 422s.',
    }),
  )
  .input(invoicePreviewRequest)
  .output(invoicePreviewResponse)
  .query(({ ctx, input }) => previewInvoices(ctx, operationScope(ctx.principal, input.channel_id), input));
