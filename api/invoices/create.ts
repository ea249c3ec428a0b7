import { z } from 'zod';
import { createDraft, invoiceCustomerIn } from '../../services/invoices/create';
import { operationScope } from '../auth/channel-scope';
import { channelIdField, dateTime, prefixedId } from '../common/schemas';
import { currency } from '../customers/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation, type AuthorizedContext, type Transaction } from '../trpc';
import { collectionMethod, discountsRequest, invoiceObject, lineItemsRequest, metadata, MAX_LINE_ITEMS } from './schemas';

export const createInvoiceRequest = z.strictObject({
  channel_id: channelIdField,
  customer_id: prefixedId('customer'),
  currency,
  line_items: lineItemsRequest.optional().meta({ description: `Up to ${MAX_LINE_ITEMS} lines; a draft may start empty.` }),
  discounts: discountsRequest.optional(),
  due_at: dateTime.optional(),
  notes: z.string().trim().min(1).regex(/\S/).max(2000).optional(),
  merchant_reference: z.string().trim().min(1).regex(/\S/).max(100).optional(),
  metadata: metadata.optional(),
  collection_method: collectionMethod.optional(),
  payment_instrument_id: prefixedId('paymentInstrument')
    .optional()
    .meta({ description: 'Charged by CHARGE_AUTOMATICALLY; left out, the customer’s default instrument at finalization.' }),
});

/** The customer an invoice (or a subscription) is for, as the caller may see it: 422 CUSTOMER_NOT_FOUND otherwise. */
export function invoiceCustomer(tx: Transaction, ctx: AuthorizedContext, customerId: string, channelId: string | undefined) {
  return invoiceCustomerIn(tx, operationScope(ctx.principal, channelId), customerId);
}

export const createInvoice = authorizedProcedure
  .meta(
    operation('invoices/create', {
      summary: 'Create a draft invoice',
      description:
        'A DRAFT in the customer’s channel, billing reason MANUAL. Emits InvoiceCreated.',
    }),
  )
  .input(createInvoiceRequest)
  .output(invoiceObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'invoices/create', input, (ctx) =>
      ctx.transaction((tx) =>
        createDraft(ctx, tx, operationScope(ctx.principal, input.channel_id), {
          customerId: input.customer_id,
          currency: input.currency,
          lines: input.line_items ?? [],
          discounts: input.discounts ?? [],
          collectionMethod: input.collection_method ?? 'SEND_INVOICE',
          paymentInstrumentId: input.payment_instrument_id ?? null,
          dueAt: input.due_at ? new Date(input.due_at) : null,
          notes: input.notes ?? null,
          merchantReference: input.merchant_reference ?? null,
          metadata: input.metadata ?? null,
        }),
      ),
    ),
  );
