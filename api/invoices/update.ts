import { z } from 'zod';
import { updateDraft } from '../../services/invoices/update';
import { operationScope } from '../auth/channel-scope';
import { channelIdField, dateTime, prefixedId } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { collectionMethod, discountsRequest, invoiceId, invoiceObject, lineItemsRequest, metadata } from './schemas';

/** A field left out is kept; `null` clears one that may be absent. Customer and currency are fixed at creation. */
export const updateInvoiceRequest = z.strictObject({
  id: invoiceId,
  channel_id: channelIdField,
  line_items: lineItemsRequest.optional().meta({ description: 'Replaces every line (new line ids).' }),
  discounts: discountsRequest.nullable().optional().meta({ description: 'Replaces the discounts; null or [] removes them.' }),
  due_at: dateTime.nullable().optional(),
  notes: z.string().trim().min(1).regex(/\S/).max(2000).nullable().optional(),
  merchant_reference: z.string().trim().min(1).regex(/\S/).max(100).nullable().optional(),
  metadata: metadata.nullable().optional().meta({ description: 'Replaces the whole object; null removes it.' }),
  collection_method: collectionMethod.optional(),
  payment_instrument_id: prefixedId('paymentInstrument').nullable().optional(),
});

export const updateInvoice = authorizedProcedure
  .meta(
    operation('invoices/update', {
      summary: 'Update a draft invoice',
      description:
        'DRAFT only. Changes only the fields sent and recomputes every amount. Emits InvoiceUpdated when something changed.',
    }),
  )
  .input(updateInvoiceRequest)
  .output(invoiceObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'invoices/update', input, (ctx) =>
      ctx.transaction((tx) =>
        updateDraft(ctx, tx, operationScope(ctx.principal, input.channel_id), input.id, {
          lines: input.line_items,
          discounts: input.discounts,
          collectionMethod: input.collection_method,
          paymentInstrumentId: input.payment_instrument_id,
          dueAt: input.due_at === undefined || input.due_at === null ? input.due_at : new Date(input.due_at),
          notes: input.notes,
          merchantReference: input.merchant_reference,
          metadata: input.metadata,
        }),
      ),
    ),
  );
