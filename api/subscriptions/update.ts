import { requireTransition } from '../../domain/subscription-status';
import type { SubscriptionChanges } from '../../domain/subscriptions/update';
import { updateSubscriptionUpdate } from '../../workflows/subscription-messages';
import { withIdempotency } from '../idempotency/with-idempotency';
import { resolveDiscounts } from '../invoices/repository';
import { authorizedProcedure, operation, type AuthorizedContext } from '../trpc';
import { changeThroughWorkflow } from './change';
import { lineTax, newLines, priceTaxCategories, requireTaxCountry, resolvePrices, subscriptionInstrument } from '../../services/subscriptions/references';
import { visibleSubscription } from './repository';
import { subscriptionObject, updateSubscriptionRequest, type UpdateSubscriptionRequest } from './schemas';

/** What the request names, resolved against the database; the workflow checks the rest against its state. */
async function resolveChanges(ctx: AuthorizedContext, input: UpdateSubscriptionRequest): Promise<SubscriptionChanges> {
  const accountId = ctx.principal.accountId;
  const row = await visibleSubscription(ctx.db, ctx, input.id, input.channel_id);
  const db = ctx.db;
  const changes: SubscriptionChanges = {};
  const taxedCustomer = () => db.customer.findUniqueOrThrow({ where: { id: row.customerId }, select: { id: true, tax: true, address: true } });
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
    const resolved = await resolvePrices(db, accountId, lines.add.map((line, index) => ({ product_price_id: line.product_price_id, field: `line_items.add[${index}].product_price_id` })), row.currency);
    changes.addLines = newLines(resolved, lines.add, ctx.now().getTime());
    requireTaxCountry(await taxedCustomer(), changes.addLines, 'line_items.add');
  }
  if (lines?.update?.length) {
    const named = lines.update.flatMap((change, index) => (change.product_price_id ? [{ product_price_id: change.product_price_id, field: `line_items.update[${index}].product_price_id` }] : []));
    const { prices, taxCategoryIds } = await resolvePrices(db, accountId, named, row.currency);
    const byId = new Map(prices.map((price) => [price.productPriceId, price]));
    // A tax without category_id takes the category of the line's price: the new one, or the current one.
    const currentPrice = new Map(row.lineItems.map((line) => [line.id, line.productPriceId]));
    const currentCategories = await priceTaxCategories(db, accountId, [...new Set(currentPrice.values())]);
    changes.updateLines = lines.update.map((change) => {
      const category = change.product_price_id ? taxCategoryIds.get(change.product_price_id) : currentCategories.get(currentPrice.get(change.id) ?? '');
      return {
        id: change.id,
        ...(change.quantity !== undefined ? { quantity: change.quantity } : {}),
        ...(change.product_price_id ? { price: byId.get(change.product_price_id)! } : {}),
        ...(change.tax !== undefined ? { tax: change.tax === null ? null : lineTax(change.tax, category) } : {}),
      };
    });
    requireTaxCountry(await taxedCustomer(), changes.updateLines.flatMap((change) => (change.tax ? [{ tax: change.tax }] : [])), 'line_items.update');
  }
  if (lines?.remove?.length) changes.removeLineIds = lines.remove;
  return changes;
}

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
        const changes = await resolveChanges(ctx, input);
        return changeThroughWorkflow(ctx, input, 'update', (state) => requireTransition('update', state.status), (handle, options) =>
          handle.executeUpdate(updateSubscriptionUpdate, { args: [changes], ...options }),
        );
      },
      { holdKey: true },
    ),
  );
