import { z } from 'zod';
import { isAccountLevel } from '../auth/principal';
import { resolveChannelScope } from '../auth/channel-scope';
import { stringCondition, valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { prefixedId } from '../common/schemas';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { routingConfigSelect } from '../../services/routing-configs/repository';
import { routingConfigObject, serializeRoutingConfig } from './schemas';

export const listRoutingConfigsRequest = z.strictObject({
  filters: z
    .strictObject({
      channel_id: valueFilter(['EQ'], prefixedId('channel')).optional(),
      name: valueFilter(['CONTAINS'], z.string().min(1).max(100)).optional(),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

export const listRoutingConfigsResponse = z.object({ items: z.array(routingConfigObject), pagination: paginationResponse });

export const listRoutingConfigs = authorizedProcedure
  .meta(
    operation('routing-configs/list', {
      summary: 'List routing configurations, newest first',
      description: 'A channel-bound key sees the configurations of its channels; an account-level key also sees the account-wide one.',
    }),
  )
  .input(listRoutingConfigsRequest)
  .output(listRoutingConfigsResponse)
  .query(({ ctx, input }) => {
    const filters = input.filters ?? {};
    const channel = filters.channel_id
      ? { channelId: resolveChannelScope(ctx.principal, filters.channel_id.value)![0]! }
      : isAccountLevel(ctx.principal)
        ? {}
        : { channelId: { in: ctx.principal.channelIds } };
    const where = {
      accountId: ctx.principal.accountId,
      ...channel,
      ...(filters.name ? { name: stringCondition(filters.name) } : {}),
    };
    return paginate(
      input.pagination,
      requestHash('routing-configs/list', filters),
      (beforeId, take) =>
        ctx.db.routingConfig.findMany({
          where: beforeId ? { ...where, id: { lt: beforeId } } : where,
          orderBy: { id: 'desc' },
          take,
          select: routingConfigSelect,
        }),
      serializeRoutingConfig,
    );
  });
