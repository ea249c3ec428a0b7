import { requireTransition } from '../../domain/subscription-status';
import type { SubscriptionChanges } from '../../domain/subscription-state';
import { updateSubscriptionUpdate } from '../../workflows/subscription-messages';
import { withIdempotency } from '../idempotency/with-idempotency';
import { resolveDiscounts } from '../invoices/repository';
import { authorizedProcedure, operation, type AuthorizedContext } from '../trpc';
import { changeThroughWorkflow } from './change';
import { newLines, resolvePrices, subscriptionInstrument } from './references';
import { visibleSubscription } from './repository';
import { subscriptionObject, updateSubscriptionRequest, type UpdateSubscriptionRequest } from './schemas';

/** What the request names, resolved against the database; the workflow checks the rest against its state. */
async function resolveChanges(ctx: AuthorizedContext, input: UpdateSubscriptionRequest): Promise<SubscriptionChanges> {
  const accountId = ctx.principal.accountId;
  const row = await visibleSubscription(ctx.db, ctx, input.id, input.channel_id);
  const db = ctx.db;
  const changes: SubscriptionChanges = {};
  if (input.payment_instrument_id !== undefined) {
    changes.paymentInstrumentId = await subscriptionInstrument(db, accountId, { id: row.customerId, configuration: null }, input.payment_instrument_id);
  }
  if (input.discounts !== undefined) changes.discounts = await resolveDiscounts(db, accountId, row.currency, input.discounts);
  if (input.description !== undefined) changes.description = input.description;
  if (input.metadata !== undefined) changes.metadata = input.metadata;
  if (input.merchant_reference !== undefined) changes.merchantReference = input.merchant_reference;
  if (input.end_trial) changes.endTrial = true;
  const lines = input.line_items;
  if (lines?.add?.length) {
    const { prices } = await resolvePrices(db, accountId, lines.add.map((line, index) => ({ product_price_id: line.product_price_id, field: `line_items.add[${index}].product_price_id` })), row.currency);
    changes.addLines = newLines(prices, lines.add.map((line) => line.quantity), ctx.now().getTime());
  }
  if (lines?.update?.length) {
    const named = lines.update.flatMap((change, index) => (change.product_price_id ? [{ product_price_id: change.product_price_id, field: `line_items.update[${index}].product_price_id` }] : []));
    const { prices } = await resolvePrices(db, accountId, named, row.currency);
    const byId = new Map(prices.map((price) => [price.productPriceId, price]));
    changes.updateLines = lines.update.map((change) => ({
      id: change.id,
      ...(change.quantity !== undefined ? { quantity: change.quantity } : {}),
      ...(change.product_price_id ? { price: byId.get(change.product_price_id)! } : {}),
    }));
  }
  if (lines?.remove?.length) changes.removeLineIds = lines.remove;
  return changes;
}

export const updateSubscription = authorizedProcedure
  .meta(
    operation('subscriptions/update', {
      summary: 'Update a subscription',
      description:
        'Payment instrument, discounts, description, metadata, merchant_reference, end_trial, and line items added, changed or removed (prorated while ACTIVE; a positive net is invoiced at once). SubscriptionUpdated. 422: INCOMPATIBLE_STATUS, TRIAL_NOT_ACTIVE, CANCELLATION_SCHEDULED, LINE_ITEM_NOT_FOUND, RECURRING_LINE_ITEM_REQUIRED, BILLING_PERIOD_MISMATCH, TOO_MANY_LINE_ITEMS, PRODUCT_PRICE_NOT_FOUND, CURRENCY_MISMATCH, PAYMENT_INSTRUMENT_NOT_FOUND, PAYMENT_INSTRUMENT_NOT_ACTIVE, COUPON_NOT_FOUND, COUPON_CURRENCY_MISMATCH.',
    }),
  )
  .input(updateSubscriptionRequest)
  .output(subscriptionObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'subscriptions/update', input, async (ctx) => {
      const changes = await resolveChanges(ctx, input);
      return changeThroughWorkflow(ctx, input, 'update', (state) => requireTransition('update', state.status), (handle, options) =>
        handle.executeUpdate(updateSubscriptionUpdate, { args: [changes], ...options }),
      );
    }),
  );
