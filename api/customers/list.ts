import { z } from 'zod';
import { resolveChannelScope } from '../auth/channel-scope';
import { dateTimeCondition, dateTimeRangeFilter, stringCondition, valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { channelIdField } from '../common/schemas';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { customerSelect, serializeCustomer } from '../../services/customers/repository';
import { customersByNamePrefix } from '../../services/customers/name-search';
import { customerObject, customerStatus, customerType } from './schemas';

export const listCustomersRequest = z.strictObject({
  channel_id: channelIdField,
  filters: z
    .strictObject({
      email: valueFilter(['EQ', 'IN', 'CONTAINS'], z.string().min(1).max(254)).optional().meta({
        description: 'Case-insensitive, whatever the operator.',
      }),
      status: valueFilter(['EQ', 'IN'], customerStatus).optional(),
      merchant_customer_id: valueFilter(['EQ', 'IN'], z.string().min(1).max(100)).optional(),
      type: valueFilter(['EQ'], customerType).optional(),
      created_at: dateTimeRangeFilter.optional(),
      name: z
        .strictObject({ operator: z.literal('STARTS_WITH'), value: z.string().trim().min(1).max(200) })
        .optional()
        .meta({
          description:
            'An extension of the spec: a case-insensitive prefix of the full name (first name, space, last name), the last name or the business name (docs/customers.md, "Search by name").',
        }),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

export const listCustomersResponse = z.object({ items: z.array(customerObject), pagination: paginationResponse });

export const listCustomers = authorizedProcedure
  .meta(
    operation('customers/list', {
      summary: 'List customers, newest first',
      description: 'Customers of the key’s channels, or of `channel_id` alone. `filters.name` (a name prefix) is an extension of the spec (docs/customers.md).',
    }),
  )
  .input(listCustomersRequest)
  .output(listCustomersResponse)
  .query(({ ctx, input }) => {
    const scope = resolveChannelScope(ctx.principal, input.channel_id);
    const filters = input.filters ?? {};
    const where = {
      accountId: ctx.principal.accountId,
      ...(scope ? { channelId: { in: scope } } : {}),
      ...(filters.email ? { email: { ...stringCondition(filters.email), mode: 'insensitive' as const } } : {}),
      ...(filters.status ? { status: stringCondition(filters.status) } : {}),
      ...(filters.merchant_customer_id ? { merchantCustomerId: stringCondition(filters.merchant_customer_id) } : {}),
      ...(filters.type ? { type: stringCondition(filters.type) } : {}),
      ...(filters.created_at ? { createdAt: dateTimeCondition(filters.created_at) } : {}),
    };
    const read = (beforeId: string | undefined, take: number) =>
      ctx.db.customer.findMany({
        where: beforeId ? { ...where, id: { lt: beforeId } } : where,
        orderBy: { id: 'desc' },
        take,
        select: customerSelect,
      });
    const name = filters.name;
    return paginate(
      input.pagination,
      requestHash('customers/list', { filters, channel_id: input.channel_id }),
      name
        ? (beforeId, take) =>
            customersByNamePrefix(ctx.db, { accountId: ctx.principal.accountId, channelIds: scope, prefix: name.value }, beforeId, take, (ids, left) =>
              ctx.db.customer.findMany({ where: { ...where, id: { in: ids } }, orderBy: { id: 'desc' }, take: left, select: customerSelect }),
            )
        : read,
      serializeCustomer,
    );
  });
