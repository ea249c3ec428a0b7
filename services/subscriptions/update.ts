import type { Client } from '@temporalio/client';
import { requireTransition } from '../../domain/subscription-status';
import type { SubscriptionChanges } from '../../domain/subscriptions/update';
import type { Prisma } from '../../prisma/client';
import { resolveDiscounts } from '../invoices/repository';
import type { Scope } from '../scope';
import { changeThroughWorkflow } from './change';
import type { UpdateSubscriptionInput } from './requests';
import type { SubscriptionObject } from './subscription-object';
import type { SubscriptionRow } from './subscription-row';
import { lineTax, newLines, priceTaxCategories, requireTaxCountry, resolvePrices, subscriptionInstrument } from './references';
import { visibleSubscription } from './visible';
import { prorationCreditSetting } from '../customer-balance/proration-credit-setting';
import type { UpdateRequestKey } from './workflow-client';

/**
 * subscriptions/update (docs/subscriptions.md): the references resolved here, the change decided
 * by the workflow against its state, which answers with the subscription as it left it.
 */
export async function updateSubscription(
  deps: { db: Prisma.TransactionClient; temporal: Client; now: () => Date },
  scope: Scope,
  input: UpdateSubscriptionInput & { id: string },
  requestKey: UpdateRequestKey | undefined,
): Promise<SubscriptionObject> {
  const row = await visibleSubscription(deps.db, scope, input.id);
  const changes = await resolveChanges({ db: deps.db, now: deps.now().getTime() }, scope, row, input);
  return changeThroughWorkflow(deps, row, (state) => requireTransition('update', state.status), { update: 'update', changes }, requestKey);
}

/**
 * subscriptions/update's references (instrument, coupons, prices, taxes) resolved against the
 * database for the subscription `row`; the workflow checks the rest against its state.
 */
async function resolveChanges(
  { db, now }: { db: Prisma.TransactionClient; now: number },
  { accountId }: { accountId: string },
  row: SubscriptionRow,
  input: UpdateSubscriptionInput,
): Promise<SubscriptionChanges> {
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
    changes.addLines = newLines(resolved, lines.add, now);
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
  if (lines) changes.prorationCredit = input.proration_credit ?? (await prorationCreditSetting(db, accountId));
  return changes;
}
