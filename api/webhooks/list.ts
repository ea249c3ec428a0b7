import { z } from 'zod';
import { isAccountLevel } from '../auth/principal';
import { dateTimeCondition, dateTimeRangeFilter, stringCondition, valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { endpointSelect } from '../../services/webhooks/endpoints';
import { ENDPOINT_STATUSES, serializeEndpoint, webhookEndpointObject } from './schemas';

export const listWebhooksRequest = z.strictObject({
  filters: z
    .strictObject({
      status: valueFilter(['EQ', 'IN'], z.enum(ENDPOINT_STATUSES)).optional(),
      url: valueFilter(['EQ', 'CONTAINS'], z.string().min(1).max(2048)).optional(),
      created_at: dateTimeRangeFilter.optional(),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

export const listWebhooksResponse = z.object({ items: z.array(webhookEndpointObject), pagination: paginationResponse });

export const listWebhooks = authorizedProcedure
  .meta(
    operation('webhooks/list', {
      summary: 'List webhook endpoints, newest first',
      description: 'Live endpoints the key can see: all of them for an account-level key, those of its channels for a channel-bound key.',
    }),
  )
  .input(listWebhooksRequest)
  .output(listWebhooksResponse)
  .query(({ ctx, input }) => {
    const filters = input.filters ?? {};
    const where = {
      accountId: ctx.principal.accountId,
      deletedAt: null,
      ...(isAccountLevel(ctx.principal) ? {} : { channelId: { in: ctx.principal.channelIds } }),
      ...(filters.status ? { status: stringCondition(filters.status) } : {}),
      ...(filters.url ? { url: stringCondition(filters.url) } : {}),
      ...(filters.created_at ? { createdAt: dateTimeCondition(filters.created_at) } : {}),
    };
    return paginate(
      input.pagination,
      requestHash('webhooks/list', { filters }),
      (beforeId, take) =>
        ctx.db.webhookEndpoint.findMany({
          where: beforeId ? { ...where, id: { lt: beforeId } } : where,
          orderBy: { id: 'desc' },
          take,
          select: endpointSelect,
        }),
      serializeEndpoint,
    );
  });
