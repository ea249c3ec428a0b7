import { z } from 'zod';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { dateTimeCondition, dateTimeRangeFilter, stringCondition, valueFilter } from '../common/filters';
import { prefixedId } from '../common/schemas';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { apiKeySelect } from '../../services/api-keys/repository';
import { apiKeyObject, permission, serializeApiKey } from './schemas';

export const listApiKeysRequest = z.strictObject({
  filters: z
    .strictObject({
      name: valueFilter(['EQ', 'NEQ', 'IN', 'CONTAINS'], z.string().min(1).max(100)).optional(),
      channel_id: valueFilter(['EQ', 'IN'], prefixedId('channel')).optional().meta({
        description: 'Keys bound to this channel (EQ) or to any of these channels (IN).',
      }),
      permission: valueFilter(['EQ'], permission).optional().meta({ description: 'Keys holding this permission.' }),
      created_at: dateTimeRangeFilter.optional(),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

export const listApiKeysResponse = z.object({ items: z.array(apiKeyObject), pagination: paginationResponse });

export const listApiKeys = authorizedProcedure
  .meta(operation('api-keys/list', { summary: 'List API keys, newest first', accountLevelOnly: true }))
  .input(listApiKeysRequest)
  .output(listApiKeysResponse)
  .query(({ ctx, input }) => {
    const filters = input.filters ?? {};
    const channel = filters.channel_id;
    const where = {
      accountId: ctx.principal.accountId,
      ...(filters.name ? { name: stringCondition(filters.name) } : {}),
      ...(channel ? { channelIds: channel.operator === 'IN' ? { hasSome: channel.value } : { has: channel.value } } : {}),
      ...(filters.permission ? { permissions: { has: filters.permission.value } } : {}),
      ...(filters.created_at ? { createdAt: dateTimeCondition(filters.created_at) } : {}),
    };
    return paginate(
      input.pagination,
      requestHash('api-keys/list', filters),
      (beforeId, take) =>
        ctx.db.apiKey.findMany({
          where: beforeId ? { ...where, id: { lt: beforeId } } : where,
          orderBy: { id: 'desc' },
          take,
          select: apiKeySelect,
        }),
      serializeApiKey,
    );
  });
