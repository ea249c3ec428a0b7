import { z } from 'zod';
import { announceVoided, voidInvoice as voidInvoiceService } from '../../services/invoices/void';
import { operationScope } from '../auth/channel-scope';
import { channelIdField } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { invoiceId, invoiceObject } from './schemas';

/** Section 4.4. */
export const voidInvoiceRequest = z.strictObject({ id: invoiceId, channel_id: channelIdField });

export const voidInvoice = authorizedProcedure
  .meta(
    operation('invoices/void', {
      summary: 'Void an invoice',
      description:
        'OPEN, DUNNING or UNPAID → VOIDED: nothing is owed any more (amount_due 0) and a running collection stops. Emits InvoiceVoided.',
    }),
  )
  .input(voidInvoiceRequest)
  .output(invoiceObject)
  .mutation(async ({ ctx, input }) => {
    const invoice = await withIdempotency(ctx, 'invoices/void', input, (ctx) =>
      ctx.transaction((tx) => voidInvoiceService(ctx, tx, operationScope(ctx.principal, input.channel_id), input.id)),
    );
    await announceVoided(ctx, invoice);
    return invoice;
  });
