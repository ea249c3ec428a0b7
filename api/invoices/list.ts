import { z } from 'zod';
import { resolveChannelScope } from '../auth/channel-scope';
import { dateTimeCondition, dateTimeRangeFilter, stringCondition, valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { channelIdField, prefixedId } from '../common/schemas';
import { currency } from '../customers/schemas';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { customerSnapshotSelect } from '../../services/invoices/invoice-object';
import { invoiceObject, invoiceSelect, invoiceStatus, serializeInvoice, type SnapshotSource } from './schemas';

export const listInvoicesRequest = z.strictObject({
  channel_id: channelIdField,
  filters: z
    .strictObject({
      status: valueFilter(['EQ', 'IN'], invoiceStatus).optional(),
      customer_id: valueFilter(['EQ'], prefixedId('customer')).optional(),
      subscription_id: valueFilter(['EQ'], prefixedId('subscription')).optional(),
      currency: valueFilter(['EQ'], currency).optional(),
      created_at: dateTimeRangeFilter.optional(),
      due_at: dateTimeRangeFilter.optional(),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

export const listInvoices = authorizedProcedure
  .meta(
    operation('invoices/list', {
      summary: 'List invoices, newest first',
      description: 'Invoices of the key’s channels, or of `channel_id` alone. Deleted invoices are left out.',
    }),
  )
  .input(listInvoicesRequest)
  .output(z.object({ items: z.array(invoiceObject), pagination: paginationResponse }))
  .query(({ ctx, input }) => {
    const scope = resolveChannelScope(ctx.principal, input.channel_id);
    const filters = input.filters ?? {};
    const where = {
      accountId: ctx.principal.accountId,
      deletedAt: null,
      ...(scope ? { channelId: { in: scope } } : {}),
      ...(filters.status ? { status: stringCondition(filters.status) } : {}),
      ...(filters.customer_id ? { customerId: stringCondition(filters.customer_id) } : {}),
      ...(filters.subscription_id ? { subscriptionId: stringCondition(filters.subscription_id) } : {}),
      ...(filters.currency ? { currency: stringCondition(filters.currency) } : {}),
      ...(filters.created_at ? { createdAt: dateTimeCondition(filters.created_at) } : {}),
      ...(filters.due_at ? { dueAt: dateTimeCondition(filters.due_at) } : {}),
    };
    const now = ctx.now();
    // Drafts show their live customer: read those of one page in one query.
    let customers = new Map<string, SnapshotSource>();
    return paginate(
      input.pagination,
      requestHash('invoices/list', { filters, channel_id: input.channel_id }),
      async (beforeId, take) => {
        const rows = await ctx.db.invoice.findMany({
          where: beforeId ? { ...where, id: { lt: beforeId } } : where,
          orderBy: { id: 'desc' },
          take,
          select: invoiceSelect,
        });
        const draftCustomerIds = [...new Set(rows.filter((row) => row.customerSnapshot === null).map((row) => row.customerId))];
        const found = await ctx.db.customer.findMany({ where: { id: { in: draftCustomerIds } }, select: customerSnapshotSelect });
        customers = new Map(found.map((customer) => [customer.id, customer]));
        return rows;
      },
      (row) => serializeInvoice(row, { now, customer: customers.get(row.customerId) }),
    );
  });
