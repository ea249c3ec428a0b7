import { deleteSubscriptionCancellation as deleteCancellation } from '../../services/subscriptions/delete-cancellation';
import { operationScope } from '../auth/channel-scope';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { deleteCancellationRequest, subscriptionObject } from './schemas';
import { updateRequestKey } from './update-request-key';

export const deleteSubscriptionCancellation = authorizedProcedure
  .meta(
    operation('subscriptions/delete-cancellation', {
      summary: 'Remove a scheduled PERIOD_END cancellation',
      description: 'cancellation_info is removed and billing goes on; SubscriptionUpdated.',
    }),
  )
  .input(deleteCancellationRequest)
  .output(subscriptionObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(
      ctx,
      'subscriptions/delete-cancellation',
      input,
      (ctx) => deleteCancellation(ctx, operationScope(ctx.principal, input.channel_id), input.id, updateRequestKey(ctx)),
      { holdKey: true },
    ),
  );
