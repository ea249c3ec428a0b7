import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { resolveChannelScope } from '../auth/channel-scope';
import { channelIdField, dateTime, prefixedId } from '../common/schemas';
import { currency } from '../customers/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation, type AuthorizedContext, type Transaction } from '../trpc';
import { checkPaymentInstrument, createInvoiceRecord, customerSnapshotSelect, resolveDiscounts, resolveLines } from '../../services/invoices/repository';
import { collectionMethod, discountsRequest, invoiceObject, lineItemsRequest, metadata, MAX_LINE_ITEMS } from './schemas';

export const createInvoiceRequest = z.strictObject({
  channel_id: channelIdField,
  customer_id: prefixedId('customer'),
  currency,
  line_items: lineItemsRequest.optional().meta({ description: `Up to ${MAX_LINE_ITEMS} lines; a draft may start empty.` }),
  discounts: discountsRequest.optional(),
  due_at: dateTime.optional(),
  notes: z.string().trim().min(1).max(2000).optional(),
  merchant_reference: z.string().trim().min(1).max(100).optional(),
  metadata: metadata.optional(),
  collection_method: collectionMethod.optional(),
  payment_instrument_id: prefixedId('paymentInstrument')
    .optional()
    .meta({ description: 'Charged by CHARGE_AUTOMATICALLY; left out, the customer’s default instrument at finalization.' }),
});

/**
 * The customer an invoice is for, as the caller may see it. A customer the caller cannot see is
 * a reference to nothing: 422 CUSTOMER_NOT_FOUND, like any other id a body names.
 */
export async function invoiceCustomer(tx: Transaction, ctx: AuthorizedContext, customerId: string, channelId: string | undefined) {
  const scope = resolveChannelScope(ctx.principal, channelId);
  const customer = await tx.customer.findFirst({ where: { id: customerId, accountId: ctx.principal.accountId }, select: customerSnapshotSelect });
  if (!customer || (scope !== null && !scope.includes(customer.channelId))) {
    throw new ApiError('CUSTOMER_NOT_FOUND', `Customer ${customerId} does not exist.`, { field: 'customer_id', customer_id: customerId });
  }
  return customer;
}

export const createInvoice = authorizedProcedure
  .meta(
    operation('invoices/create', {
      summary: 'Create a draft invoice',
      description:
        'A DRAFT in the customer’s channel, billing reason MANUAL. Emits InvoiceCreated. 422: CUSTOMER_NOT_FOUND, PRODUCT_PRICE_NOT_FOUND, CURRENCY_MISMATCH, COUPON_NOT_FOUND, COUPON_CURRENCY_MISMATCH, PAYMENT_INSTRUMENT_NOT_FOUND.',
    }),
  )
  .input(createInvoiceRequest)
  .output(invoiceObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'invoices/create', input, (ctx) =>
      ctx.transaction(async (tx) => {
        const accountId = ctx.principal.accountId;
        const customer = await invoiceCustomer(tx, ctx, input.customer_id, input.channel_id);
        if (input.payment_instrument_id) await checkPaymentInstrument(tx, accountId, customer.id, input.payment_instrument_id);
        const lines = await resolveLines(tx, accountId, input.currency, input.line_items ?? []);
        const discounts = await resolveDiscounts(tx, accountId, input.currency, input.discounts ?? []);
        const { object } = await createInvoiceRecord(tx, {
          accountId,
          customer,
          currency: input.currency,
          billingReason: 'MANUAL',
          state: {
            lines,
            discounts,
            collectionMethod: input.collection_method ?? 'SEND_INVOICE',
            paymentInstrumentId: input.payment_instrument_id ?? null,
            dueAt: input.due_at ? new Date(input.due_at) : null,
            notes: input.notes ?? null,
            merchantReference: input.merchant_reference ?? null,
            metadata: input.metadata ?? null,
          },
          now: ctx.now(),
        });
        return object;
      }),
    ),
  );
