import { z } from 'zod';
import { finalizationFailed, FinalizationRefused, finalizeInvoice as finalizeInvoiceService, recordFinalizationFailure } from '../../services/invoices/finalize';
import { operationScope } from '../auth/channel-scope';
import { channelIdField } from '../common/schemas';
import { RecordedRefusal, withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { invoiceId, invoiceObject } from './schemas';

export const finalizeInvoiceRequest = z.strictObject({ id: invoiceId, channel_id: channelIdField });

export const finalizeInvoice = authorizedProcedure
  .meta(
    operation('invoices/finalize', {
      summary: 'Finalize a draft invoice',
      description:
        'DRAFT → OPEN (→ PAID at once when the total is 0). Freezes the customer snapshot. CHARGE_AUTOMATICALLY starts collection. Emits InvoiceFinalized.',
    }),
  )
  .input(finalizeInvoiceRequest)
  .output(invoiceObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'invoices/finalize', input, async (ctx) => {
      const scope = operationScope(ctx.principal, input.channel_id);
      try {
        return await ctx.transaction((tx) => finalizeInvoiceService(ctx, tx, scope, input.id));
      } catch (error) {
        if (!(error instanceof FinalizationRefused)) throw error;
        const { reasons } = error;
        throw new RecordedRefusal(finalizationFailed(input.id, reasons), (tx) => recordFinalizationFailure(tx, scope, input.id, reasons, ctx.now()));
      }
    }),
  );
