import { z } from 'zod';
import { findCreditNotes } from '../../services/credit-notes/repository';
import { serializeCreditNote } from '../../services/credit-notes/credit-note-object';
import { operationScope } from '../auth/channel-scope';
import { dateTimeCondition, dateTimeRangeFilter, stringCondition, valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { channelIdField, prefixedId } from '../common/schemas';
import { requestHash } from '../idempotency/request-hash';
import { invoiceId } from '../invoices/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { creditNoteObject, creditNoteStatus } from './schemas';

export const listCreditNotesRequest = z.strictObject({
  channel_id: channelIdField,
  filters: z
    .strictObject({
      invoice_id: valueFilter(['EQ', 'IN'], invoiceId).optional(),
      customer_id: valueFilter(['EQ'], prefixedId('customer')).optional(),
      status: valueFilter(['EQ', 'IN'], creditNoteStatus).optional(),
      created_at: dateTimeRangeFilter.optional(),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

export const listCreditNotes = authorizedProcedure
  .meta(operation('credit-notes/list', { summary: 'List credit notes, newest first', description: 'Credit notes of the key’s channels, or of `channel_id` alone.' }))
  .input(listCreditNotesRequest)
  .output(z.object({ items: z.array(creditNoteObject), pagination: paginationResponse }))
  .query(({ ctx, input }) => {
    const scope = operationScope(ctx.principal, input.channel_id);
    const filters = input.filters ?? {};
    const where = {
      ...(filters.invoice_id ? { invoiceId: stringCondition(filters.invoice_id) } : {}),
      ...(filters.customer_id ? { customerId: stringCondition(filters.customer_id) } : {}),
      ...(filters.status ? { status: stringCondition(filters.status) } : {}),
      ...(filters.created_at ? { createdAt: dateTimeCondition(filters.created_at) } : {}),
    };
    const now = ctx.now();
    return paginate(
      input.pagination,
      requestHash('credit-notes/list', { filters, channel_id: input.channel_id }),
      (beforeId, take) => findCreditNotes(ctx.db, scope, where, beforeId, take),
      (row) => serializeCreditNote(row, now),
    );
  });
