import { z } from 'zod';
import { serializeSubscription } from '../../services/subscriptions/subscription-object';
import { subscriptionSelect } from '../../services/subscriptions/subscription-row';
import { resolveChannelScope } from '../auth/channel-scope';
import { dateTimeCondition, dateTimeRangeFilter, stringCondition, valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { channelIdField, prefixedId } from '../common/schemas';
import { currency } from '../customers/schemas';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { subscriptionObject, subscriptionStatus } from './schemas';

export const listSubscriptionsRequest = z.strictObject({
  channel_id: channelIdField,
  filters: z
    .strictObject({
      status: valueFilter(['EQ', 'IN'], subscriptionStatus).optional(),
      customer_id: valueFilter(['EQ'], prefixedId('customer')).optional(),
      currency: valueFilter(['EQ'], currency).optional(),
      created_at: dateTimeRangeFilter.optional(),
      next_billing_at: dateTimeRangeFilter.optional(),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

export const listSubscriptions = authorizedProcedure
  .meta(
    operation('subscriptions/list', {
      summary: 'List subscriptions, newest first',
      description: 'Subscriptions of the key’s channels, or of `channel_id` alone.',
    }),
  )
  .input(listSubscriptionsRequest)
  .output(z.object({ items: z.array(subscriptionObject), pagination: paginationResponse }))
  .query(({ ctx, input }) => {
    const scope = resolveChannelScope(ctx.principal, input.channel_id);
    const filters = input.filters ?? {};
    const where = {
      accountId: ctx.principal.accountId,
      ...(scope ? { channelId: { in: scope } } : {}),
      ...(filters.status ? { status: stringCondition(filters.status) } : {}),
      ...(filters.customer_id ? { customerId: stringCondition(filters.customer_id) } : {}),
      ...(filters.currency ? { currency: stringCondition(filters.currency) } : {}),
      ...(filters.created_at ? { createdAt: dateTimeCondition(filters.created_at) } : {}),
      ...(filters.next_billing_at ? { nextBillingAt: dateTimeCondition(filters.next_billing_at) } : {}),
    };
    return paginate(
      input.pagination,
      requestHash('subscriptions/list', { filters, channel_id: input.channel_id }),
      (beforeId, take) =>
        ctx.db.subscription.findMany({ where: beforeId ? { ...where, id: { lt: beforeId } } : where, orderBy: { id: 'desc' }, take, select: subscriptionSelect }),
      serializeSubscription,
    );
  });
