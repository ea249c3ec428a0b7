import { z } from 'zod';
import { listInvoicePayments, serializeInvoicePayment } from '../../services/payments/invoice-payments';
import { operationScope } from '../auth/channel-scope';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { channelIdField, dateTime } from '../common/schemas';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { invoiceId } from './schemas';

export const invoicePaymentRecord = z
  .object({
    id: z.string().meta({ description: 'The payment (`pay_…`).' }),
    invoice_id: z.string(),
    status: z.string().meta({
      description:
        'As stored (docs/payments.md, "Statuses and decline codes"): SUCCEEDED, DECLINED, FAILED; PROCESSING or PENDING while being charged; REQUIRES_ACTION while the customer must authenticate, AWAITING_PROVIDER while the provider decides (docs/payments-stripe.md).',
    }),
    amount: z.number().int().meta({ description: 'Minor units charged or attempted.' }),
    currency: z.string(),
    decline_code: z.string().optional(),
    decline_message: z.string().optional(),
    provider: z.string().optional().meta({ description: 'The provider that charged or declined it; absent when none was asked.' }),
    provider_reference: z.string().optional().meta({ description: 'The provider’s id of the charge: a Stripe PaymentIntent (`pi_…`, or `ch_…` for a decline without one), a sandbox charge id.' }),
    provider_url: z.string().optional().meta({ description: 'The payment in the provider’s own dashboard, for providers that have one (Stripe; its test data unless the account’s connection is live).' }),
    next_action_url: z.string().optional().meta({ description: 'Where the customer completes authentication, while REQUIRES_ACTION.' }),
    payment_instrument_id: z.string(),
    refunded_amount: z.number().int(),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: 'InvoicePaymentRecord' });

export const listInvoicePaymentsRequest = z.strictObject({
  id: invoiceId,
  channel_id: channelIdField,
  pagination: paginationRequest.optional(),
});

export const listInvoicePaymentsResponse = z.object({ items: z.array(invoicePaymentRecord), pagination: paginationResponse });

export const listInvoicePaymentsProcedure = authorizedProcedure
  .meta(
    operation('invoices/list-payments', {
      summary: 'List an invoice’s payments, newest first',
      description:
        'Extension (docs/invoice-payments.md, "Payments of an invoice"): every payment made to collect the invoice, with its provider and the provider’s reference. Needs invoices:get; an invoice outside the key’s channels is 404.',
      permission: 'invoices:get',
    }),
  )
  .input(listInvoicePaymentsRequest)
  .output(listInvoicePaymentsResponse)
  .query(({ ctx, input }) => {
    const scope = operationScope(ctx.principal, input.channel_id);
    return paginate(
      input.pagination,
      requestHash('invoices/list-payments', { id: input.id, channel_id: input.channel_id }),
      (beforeId, take) => listInvoicePayments(ctx.db, scope, { invoiceId: input.id, beforeId, take }),
      serializeInvoicePayment,
    );
  });
