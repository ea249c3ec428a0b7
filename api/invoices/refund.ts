import { z } from 'zod';
import { MAX_AMOUNT } from '../../domain/payments';
import { requestTag } from '../../services/payments/charge-keys';
import { refundInvoice as refundInvoiceService } from '../../services/payments/refund';
import { operationScope } from '../auth/channel-scope';
import { channelIdField } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { refundObject } from './payments/schemas';
import { invoiceId, invoiceObject } from './schemas';

export const refundInvoiceRequest = z.strictObject({
  id: invoiceId,
  amount: z
    .number()
    .int()
    .min(1)
    .max(MAX_AMOUNT)
    .optional()
    .meta({ description: 'Minor units to give back. Default: everything the invoice has left to give back.' }),
  reason: z.string().min(1).max(500).optional(),
  channel_id: channelIdField,
});

export const refundInvoiceResponse = z
  .object({
    invoice: invoiceObject,
    refund: refundObject,
    amount_refunded: z.number().int().meta({ description: 'Refunded of the invoice’s payment so far, this refund included.' }),
  })
  .meta({ id: 'InvoiceRefundResult' });

export const refundInvoice = authorizedProcedure
  .meta(
    operation('invoices/refund', {
      summary: 'Refund a paid invoice',
      description:
        'Gives back all that is left (the default) or part of the captured payment of a PAID invoice through the provider that charged it, never more than the invoice has left to give back once its credit notes are counted; the invoice stays PAID and amount_due is unchanged. Emits InvoicePaymentRefunded. docs/invoice-payments.md.',
    }),
  )
  .input(refundInvoiceRequest)
  .output(refundInvoiceResponse)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'invoices/refund', input, async (ctx) => {
      const request = ctx.idempotencyKey ? requestTag(ctx.principal.apiKeyId, ctx.idempotencyKey) : undefined;
      const scope = operationScope(ctx.principal, input.channel_id);
      return refundInvoiceService(ctx, scope, { invoiceId: input.id, amount: input.amount, reason: input.reason, request }, ctx.transaction);
    }),
  );
