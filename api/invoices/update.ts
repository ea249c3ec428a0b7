import { z } from 'zod';
import { operationScope } from '../auth/channel-scope';
import { nextStatus } from '../../domain/invoice-status';
import { recordEvent } from '../../prisma/outbox';
import { channelIdField, dateTime, prefixedId } from '../common/schemas';
import { requestHash } from '../idempotency/request-hash';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import {
  checkPaymentInstrument,
  draftStateOf,
  findInvoiceCustomer,
  lockVisibleInvoice,
  resolveDiscounts,
  resolveLines,
  saveDraft,
  type DraftState,
} from '../../services/invoices/repository';
import { collectionMethod, discountsRequest, invoiceId, invoiceObject, lineItemsRequest, metadata, serializeInvoice } from './schemas';

/** A field left out is kept; `null` clears one that may be absent. Customer and currency are fixed at creation. */
export const updateInvoiceRequest = z.strictObject({
  id: invoiceId,
  channel_id: channelIdField,
  line_items: lineItemsRequest.optional().meta({ description: 'Replaces every line (new line ids).' }),
  discounts: discountsRequest.nullable().optional().meta({ description: 'Replaces the discounts; null or [] removes them.' }),
  due_at: dateTime.nullable().optional(),
  notes: z.string().trim().min(1).max(2000).nullable().optional(),
  merchant_reference: z.string().trim().min(1).max(100).nullable().optional(),
  metadata: metadata.nullable().optional().meta({ description: 'Replaces the whole object; null removes it.' }),
  collection_method: collectionMethod.optional(),
  payment_instrument_id: prefixedId('paymentInstrument').nullable().optional(),
});

const keep = <T>(sent: T | undefined, current: T): T => (sent === undefined ? current : sent);

/** Canonical JSON sees a Date as `{}`, so the due date goes in as text. */
const fingerprint = (state: DraftState) => requestHash('invoice', { ...state, dueAt: state.dueAt?.toISOString() ?? null });

export const updateInvoice = authorizedProcedure
  .meta(
    operation('invoices/update', {
      summary: 'Update a draft invoice',
      description:
        'DRAFT only (else 422 INCOMPATIBLE_STATUS). Changes only the fields sent and recomputes every amount. Emits InvoiceUpdated when something changed. 422 as for create.',
    }),
  )
  .input(updateInvoiceRequest)
  .output(invoiceObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'invoices/update', input, (ctx) =>
      ctx.transaction(async (tx) => {
        const accountId = ctx.principal.accountId;
        const row = await lockVisibleInvoice(tx, operationScope(ctx.principal, input.channel_id), input.id);
        nextStatus('update', row.status);
        const customer = await findInvoiceCustomer(tx, row.customerId);
        if (input.payment_instrument_id) await checkPaymentInstrument(tx, accountId, row.customerId, input.payment_instrument_id);

        const current = draftStateOf(row);
        const next: DraftState = {
          lines: input.line_items ? await resolveLines(tx, accountId, row.currency, input.line_items) : current.lines,
          discounts: input.discounts === undefined ? current.discounts : await resolveDiscounts(tx, accountId, row.currency, input.discounts ?? []),
          collectionMethod: keep(input.collection_method, current.collectionMethod),
          paymentInstrumentId: keep(input.payment_instrument_id, current.paymentInstrumentId),
          dueAt: input.due_at === undefined ? current.dueAt : input.due_at === null ? null : new Date(input.due_at),
          notes: keep(input.notes, current.notes),
          merchantReference: keep(input.merchant_reference, current.merchantReference),
          metadata: keep(input.metadata, current.metadata),
        };
        const now = ctx.now();
        if (fingerprint(next) === fingerprint(current)) return serializeInvoice(row, { now, customer });

        const saved = await saveDraft(tx, row, next, input.line_items !== undefined, now);
        const invoice = serializeInvoice(saved, { now, customer });
        await recordEvent(tx, { accountId, channelId: saved.channelId, name: 'InvoiceUpdated', data: { invoice }, occurredAt: now });
        return invoice;
      }),
    ),
  );
