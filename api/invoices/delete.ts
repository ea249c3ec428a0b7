import { z } from 'zod';
import { operationScope } from '../auth/channel-scope';
import { nextStatus } from '../../domain/invoice-status';
import { recordEvent } from '../../prisma/outbox';
import { channelIdField } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { findInvoiceCustomer, lockVisibleInvoice } from '../../services/invoices/repository';
import { invoiceId, invoiceSelect, serializeInvoice } from './schemas';

export const deleteInvoiceRequest = z.strictObject({ id: invoiceId, channel_id: channelIdField });

export const deleteInvoiceResponse = z.object({ id: z.string(), deleted: z.literal(true) });

export const deleteInvoice = authorizedProcedure
  .meta(
    operation('invoices/delete', {
      summary: 'Delete a draft invoice',
      description:
        'DRAFT only (else 422 INCOMPATIBLE_STATUS). The invoice is 404 afterwards and left out of lists and reports. Emits InvoiceDeleted (section 6.2 payload).',
    }),
  )
  .input(deleteInvoiceRequest)
  .output(deleteInvoiceResponse)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'invoices/delete', input, (ctx) =>
      ctx.transaction(async (tx) => {
        const row = await lockVisibleInvoice(tx, operationScope(ctx.principal, input.channel_id), input.id);
        nextStatus('delete', row.status);
        const now = ctx.now();
        const saved = await tx.invoice.update({ where: { id: row.id }, data: { deletedAt: now, updatedAt: now }, select: invoiceSelect });
        const invoice = serializeInvoice(saved, { now, customer: await findInvoiceCustomer(tx, row.customerId), deleted: true });
        await recordEvent(tx, { accountId: ctx.principal.accountId, channelId: saved.channelId, name: 'InvoiceDeleted', data: { invoice }, occurredAt: now });
        return { id: saved.id, deleted: true as const };
      }),
    ),
  );
