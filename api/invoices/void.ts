import { ApiError } from '../../domain/errors';
import { z } from 'zod';
import { operationScope } from '../auth/channel-scope';
import { nextStatus } from '../../domain/invoice-status';
import { recordEvent } from '../../prisma/outbox';
import { channelIdField } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { signalSubscriptionInvoiceSettled } from '../subscriptions/workflow-client';
import { signalInvoiceStatusChanged } from '../../services/invoices/collection-workflow';
import { lockVisibleInvoice } from '../../services/invoices/repository';
import { invoiceId, invoiceObject, invoiceSelect, serializeInvoice } from './schemas';

/** Section 4.4. */
export const voidInvoiceRequest = z.strictObject({ id: invoiceId, channel_id: channelIdField });

export const voidInvoice = authorizedProcedure
  .meta(
    operation('invoices/void', {
      summary: 'Void an invoice',
      description:
        'OPEN, DUNNING or UNPAID → VOIDED: nothing is owed any more (amount_due 0) and a running collection stops. Other statuses: 422 INCOMPATIBLE_STATUS. Emits InvoiceVoided.',
    }),
  )
  .input(voidInvoiceRequest)
  .output(invoiceObject)
  .mutation(async ({ ctx, input }) => {
    const invoice = await withIdempotency(ctx, 'invoices/void', input, (ctx) =>
      ctx.transaction(async (tx) => {
        const row = await lockVisibleInvoice(tx, operationScope(ctx.principal, input.channel_id), input.id);
        const status = nextStatus('void', row.status);
        if (row.paymentInProgressId) {
          // A charge may be taking the money right now: voiding under it would bill a void invoice.
          throw new ApiError('INCOMPATIBLE_STATUS', `A payment of invoice ${row.id} is under way; void it once that payment has finished.`, {
            status: row.status,
            payment_in_progress: true,
          });
        }
        const now = ctx.now();
        const saved = await tx.invoice.update({
          where: { id: row.id },
          data: { status, voidedAt: now, amountDue: 0, updatedAt: now },
          select: invoiceSelect,
        });
        const invoice = serializeInvoice(saved, { now });
        await recordEvent(tx, { accountId: ctx.principal.accountId, channelId: saved.channelId, name: 'InvoiceVoided', data: { invoice }, occurredAt: now });
        return invoice;
      }),
    );
    // After the commit, so the workflow reads VOIDED; a replayed request signals again, harmlessly.
    await signalInvoiceStatusChanged(ctx.temporal, input.id);
    if (invoice.subscription_id) await signalSubscriptionInvoiceSettled(ctx.temporal, invoice.subscription_id, input.id);
    return invoice;
  });
