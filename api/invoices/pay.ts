import { z } from 'zod';
import { requestTag } from '../../services/payments/charge-keys';
import { announcePaid, payInvoice as payInvoiceService } from '../../services/payments/pay';
import { operationScope } from '../auth/channel-scope';
import { channelIdField, prefixedId } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { paymentObject } from './payments/schemas';
import { invoiceId, invoiceObject } from './schemas';

export const payInvoiceRequest = z.strictObject({
  id: invoiceId,
  payment_instrument_id: prefixedId('paymentInstrument'),
  channel_id: channelIdField,
});

export const payInvoiceResponse = z
  .object({
    invoice: invoiceObject,
    payment: paymentObject.meta({ description: 'The charge this request made: a decline is a 200 too, with the payment’s status.' }),
  })
  .meta({ id: 'InvoicePayResult' });

export const payInvoice = authorizedProcedure
  .meta(
    operation('invoices/pay', {
      summary: 'Pay an invoice with a saved payment instrument',
      description:
        'Charges the amount due of an OPEN, DUNNING or UNPAID invoice through the charge path (antifraud, routing, cascade). Success: PAID, InvoicePaid, and a running dunning ends. A decline is a 200 with `payment.status` DECLINED or FAILED and InvoicePaymentFailed; the invoice keeps its status. docs/invoice-payments.md.',
    }),
  )
  .input(payInvoiceRequest)
  .output(payInvoiceResponse)
  .mutation(async ({ ctx, input }) => {
    const request = ctx.idempotencyKey ? requestTag(ctx.principal.apiKeyId, ctx.idempotencyKey) : undefined;
    const result = await withIdempotency(ctx, 'invoices/pay', input, (ctx) =>
      payInvoiceService(ctx, operationScope(ctx.principal, input.channel_id), { invoiceId: input.id, instrumentId: input.payment_instrument_id, request }, ctx.transaction),
    );
    await announcePaid(ctx, result);
    return result;
  });
