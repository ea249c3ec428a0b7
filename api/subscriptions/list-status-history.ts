import { z } from 'zod';
import { listStatusChanges, serializeStatusChange } from '../../services/subscriptions/status-history';
import { operationScope } from '../auth/channel-scope';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { channelIdField } from '../common/schemas';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { statusChangeObject, subscriptionId } from './schemas';

export const listStatusHistoryRequest = z.strictObject({
  id: subscriptionId,
  channel_id: channelIdField,
  pagination: paginationRequest.optional(),
});

export const listStatusHistoryResponse = z.object({ items: z.array(statusChangeObject), pagination: paginationResponse });

export const listSubscriptionStatusHistory = authorizedProcedure
  .meta(
    operation('subscriptions/list-status-history', {
      summary: 'List a subscription’s status changes, newest first',
      description:
        'Extension (docs/subscriptions.md, "Status history"): every status the subscription took, from the one it was created with, with the cause. Needs subscriptions:get; a subscription outside the key’s channels is 404.',
      permission: 'subscriptions:get',
    }),
  )
  .input(listStatusHistoryRequest)
  .output(listStatusHistoryResponse)
  .query(({ ctx, input }) => {
    const scope = operationScope(ctx.principal, input.channel_id);
    return paginate(
      input.pagination,
      requestHash('subscriptions/list-status-history', { id: input.id, channel_id: input.channel_id }),
      (beforeId, take) => listStatusChanges(ctx.db, scope, { subscriptionId: input.id, beforeId, take }),
      serializeStatusChange,
    );
  });
