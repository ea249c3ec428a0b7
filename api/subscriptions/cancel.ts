import { cancelSubscription as cancel } from '../../services/subscriptions/cancel';
import { operationScope } from '../auth/channel-scope';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { cancelSubscriptionRequest, subscriptionObject } from './schemas';
import { updateRequestKey } from './update-request-key';

export const cancelSubscription = authorizedProcedure
  .meta(
    operation('subscriptions/cancel', {
      summary: 'Cancel a subscription, now or at the end of its period',
      description:
        'Without mode (or IMMEDIATELY): CANCELLED now, SubscriptionCancelled; an invoice in dunning keeps being collected. PERIOD_END: cancellation_info set, SubscriptionScheduledForCancellation, CANCELLED at cancel_at; no further invoice.',
    }),
  )
  .input(cancelSubscriptionRequest)
  .output(subscriptionObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'subscriptions/cancel', input, (ctx) =>
        cancel(ctx, operationScope(ctx.principal, input.channel_id), { ...input, ...(ctx.principal.customer ? { requestedBy: 'CUSTOMER' } : {}) }, updateRequestKey(ctx)), {
      holdKey: true,
    }),
  );
