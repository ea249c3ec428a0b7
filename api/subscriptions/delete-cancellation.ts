import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { deleteCancellationUpdate } from '../../workflows/subscription-messages';
import { validateDeleteCancellation } from '../../domain/subscriptions/cancellation';
import { changeVisibleSubscription } from './change';
import { deleteCancellationRequest, subscriptionObject } from './schemas';

export const deleteSubscriptionCancellation = authorizedProcedure
  .meta(
    operation('subscriptions/delete-cancellation', {
      summary: 'Remove a scheduled PERIOD_END cancellation',
      description: 'cancellation_info is removed and billing goes on; SubscriptionUpdated. 422 CANCELLATION_NOT_SCHEDULED when none is scheduled (or it was immediate).',
    }),
  )
  .input(deleteCancellationRequest)
  .output(subscriptionObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'subscriptions/delete-cancellation', input, (ctx) =>
      changeVisibleSubscription(ctx, input, 'deleteCancellation', validateDeleteCancellation, (handle, options) => handle.executeUpdate(deleteCancellationUpdate, options)),
      { holdKey: true },
    ),
  );
