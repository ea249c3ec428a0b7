import { z } from 'zod';
import { operationScope } from '../auth/channel-scope';
import { ApiError } from '../../domain/errors';
import { newUlid } from '../../domain/ids';
import { MAX_AMOUNT } from '../../domain/payments';
import { channelIdField } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { requestTag } from '../../services/payments/charge-keys';
import { abandonedRefunds, finishRefund, refundablePayment, reserveRefund } from '../../services/payments/refunds';
import { refundObject } from './payments/schemas';
import { lockVisibleInvoice, visibleInvoice } from '../../services/invoices/repository';
import { invoiceId, invoiceObject } from './schemas';

export const refundInvoiceRequest = z.strictObject({
  id: invoiceId,
  amount: z
    .number()
    .int()
    .min(1)
    .max(MAX_AMOUNT)
    .optional()
    .meta({ description: 'Minor units to give back. Default: everything not yet refunded.' }),
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
        'Gives back all (the default) or part of the captured payment of a PAID invoice through the provider that charged it; the invoice stays PAID and amount_due is unchanged. Emits InvoicePaymentRefunded. 422: INCOMPATIBLE_STATUS (not PAID, or no captured payment), REFUND_EXCEEDS_PAYMENT (more than is left to refund). docs/invoice-payments.md.',
    }),
  )
  .input(refundInvoiceRequest)
  .output(refundInvoiceResponse)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'invoices/refund', input, async (ctx) => {
      const request = ctx.idempotencyKey ? requestTag(ctx.principal.apiKeyId, ctx.idempotencyKey) : undefined;
      // Abandoned refunds of the invoice are finished first, so this one is decided on what is
      // really left to refund; only once the caller may see the invoice: the provider calls are
      // made on its behalf.
      const visible = await visibleInvoice(ctx.db, operationScope(ctx.principal, input.channel_id), input.id);
      for (const id of await abandonedRefunds(ctx.db, ctx.now(), { invoice: { accountId: visible.accountId, id: visible.id } })) {
        await finishRefund(ctx.db, id, (work) => ctx.db.$transaction(work), ctx.now);
      }
      const refundId = await ctx.db.$transaction(async (tx) => {
        const row = await lockVisibleInvoice(tx, operationScope(ctx.principal, input.channel_id), input.id);
        const key = `${row.id}/refund/${request ?? newUlid(ctx.now().getTime())}`;
        // This request's retry: the refund it recorded before it was cut off is resumed.
        const own = await tx.refund.findUnique({ where: { accountId_idempotencyKey: { accountId: row.accountId, idempotencyKey: key } } });
        if (own) return own.id;
        if (row.status !== 'PAID') {
          throw new ApiError('INCOMPATIBLE_STATUS', `The invoice is ${row.status}; only a PAID invoice can be refunded.`, {
            status: row.status,
            allowed_statuses: ['PAID'],
          });
        }
        const found = await refundablePayment(tx, row.id);
        if (!found) {
          throw new ApiError('INCOMPATIBLE_STATUS', `Invoice ${row.id} was not paid through a provider: there is no payment to refund.`, {
            status: row.status,
          });
        }
        const { payment, refundable } = found;
        const amount = input.amount ?? refundable;
        if (amount > refundable || amount === 0) {
          throw new ApiError('REFUND_EXCEEDS_PAYMENT', `Payment ${payment.id} has ${refundable} left to refund; ${amount} asked.`, {
            amount,
            refundable,
            payment_id: payment.id,
          });
        }
        return reserveRefund(tx, { invoice: row, payment, amount, reason: input.reason ?? null, key, now: ctx.now() });
      });
      return finishRefund(ctx.db, refundId, ctx.transaction, ctx.now);
    }),
  );
