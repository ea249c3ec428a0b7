import { updateSubscription as update } from '../../services/subscriptions/update';
import { operationScope } from '../auth/channel-scope';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { subscriptionObject, updateSubscriptionRequest } from './schemas';
import { updateRequestKey } from './update-request-key';

export const updateSubscription = authorizedProcedure
  .meta(
    operation('subscriptions/update', {
      summary: 'Update a subscription',
      description:
        'Payment instrument, discounts, description, metadata, merchant_reference, end_trial, and line items added, changed or removed (prorated while ACTIVE per tax treatment: a positive net is invoiced at once, a net credit refunded). SubscriptionUpdated.',
    }),
  )
  .input(updateSubscriptionRequest)
  .output(subscriptionObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'subscriptions/update', input, (ctx) => update(ctx, operationScope(ctx.principal, input.channel_id), input, updateRequestKey(ctx)), {
      holdKey: true,
    }),
  );
