import { z } from 'zod';
import { listInvoiceRefunds } from '../../services/payments/invoice-refunds';
import { operationScope } from '../auth/channel-scope';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { channelIdField } from '../common/schemas';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { refundObject } from './payments/schemas';
import { invoiceId } from './schemas';

export const listInvoiceRefundsRequest = z.strictObject({
  id: invoiceId,
  channel_id: channelIdField,
  pagination: paginationRequest.optional(),
});

export const listInvoiceRefundsResponse = z.object({ items: z.array(refundObject), pagination: paginationResponse });

export const listInvoiceRefundsProcedure = authorizedProcedure
  .meta(
    operation('invoices/list-refunds', {
      summary: 'List an invoice’s refunds, newest first',
      description:
        'Extension (docs/invoice-payments.md, "Refunds of an invoice"): every refund of the invoice’s payments, made by invoices/refund, by a credit note’s refund part or by a proration credit, PENDING and FAILED ones too. Needs invoices:get; an invoice outside the key’s channels is 404.',
      permission: 'invoices:get',
    }),
  )
  .input(listInvoiceRefundsRequest)
  .output(listInvoiceRefundsResponse)
  .query(({ ctx, input }) => {
    const scope = operationScope(ctx.principal, input.channel_id);
    return paginate(
      input.pagination,
      requestHash('invoices/list-refunds', { id: input.id, channel_id: input.channel_id }),
      (beforeId, take) => listInvoiceRefunds(ctx.db, scope, { invoiceId: input.id, beforeId, take }),
      (refund) => refund,
    );
  });
