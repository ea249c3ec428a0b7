import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { cancelSubscriptionUpdate } from '../../workflows/subscription-messages';
import { requireTransition } from '../../domain/subscription-status';
import { changeVisibleSubscription } from './change';
import { cancelSubscriptionRequest, subscriptionObject } from './schemas';

export const cancelSubscription = authorizedProcedure
  .meta(
    operation('subscriptions/cancel', {
      summary: 'Cancel a subscription, now or at the end of its period',
      description:
        'Without mode (or IMMEDIATELY): CANCELLED now, SubscriptionCancelled; an invoice in dunning keeps being collected. PERIOD_END: cancellation_info set, SubscriptionScheduledForCancellation, CANCELLED at cancel_at; no further invoice. 422: INCOMPATIBLE_STATUS, CANCELLATION_ALREADY_SCHEDULED, NO_PERIOD_END.',
    }),
  )
  .input(cancelSubscriptionRequest)
  .output(subscriptionObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'subscriptions/cancel', input, (ctx) =>
      changeVisibleSubscription(ctx, input, 'cancel', (state) => requireTransition('cancel', state.status), (handle, options) =>
        handle.executeUpdate(cancelSubscriptionUpdate, {
          args: [{ mode: input.mode ?? 'IMMEDIATELY', reason: input.reason ?? 'CANCELLATION_REQUESTED', comment: input.comment ?? null }],
          ...options,
        }),
      ),
      { holdKey: true },
    ),
  );
