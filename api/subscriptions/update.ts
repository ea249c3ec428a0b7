import { requireTransition } from '../../domain/subscription-status';
import { changeThroughWorkflow } from '../../services/subscriptions/change';
import { resolveChanges } from '../../services/subscriptions/update';
import { updateSubscriptionUpdate } from '../../workflows/subscription-messages';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { updateIdempotency } from './change';
import { subscriptionObject, updateSubscriptionRequest } from './schemas';
import { visibleSubscription } from './visible-subscription';

export const updateSubscription = authorizedProcedure
  .meta(
    operation('subscriptions/update', {
      summary: 'Update a subscription',
      description:
        'Payment instrument, discounts, description, metadata, merchant_reference, end_trial, and line items added, changed or removed (prorated while ACTIVE per tax treatment: a positive net is invoiced at once, a net credit refunded). SubscriptionUpdated. 422: INCOMPATIBLE_STATUS, TRIAL_NOT_ACTIVE, CANCELLATION_SCHEDULED, LINE_ITEM_NOT_FOUND, RECURRING_LINE_ITEM_REQUIRED, BILLING_PERIOD_MISMATCH, TOO_MANY_LINE_ITEMS, PRODUCT_PRICE_NOT_FOUND, CURRENCY_MISMATCH, PAYMENT_INSTRUMENT_NOT_FOUND, PAYMENT_INSTRUMENT_NOT_ACTIVE, COUPON_NOT_FOUND, COUPON_CURRENCY_MISMATCH, CUSTOMER_ADDRESS_COUNTRY_REQUIRED.',
    }),
  )
  .input(updateSubscriptionRequest)
  .output(subscriptionObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(
      ctx,
      'subscriptions/update',
      input,
      async (ctx) => {
        const row = await visibleSubscription(ctx.db, ctx, input.id, input.channel_id);
        const changes = await resolveChanges({ db: ctx.db, now: ctx.now().getTime() }, { accountId: ctx.principal.accountId }, row, input);
        return changeThroughWorkflow({ temporal: ctx.temporal }, row, (state) => requireTransition('update', state.status), (handle, options) =>
          handle.executeUpdate(updateSubscriptionUpdate, { args: [changes], ...options }),
          updateIdempotency(ctx, 'update'),
        );
      },
      { holdKey: true },
    ),
  );
