import { samePeriod, type BillingPeriod } from '../billing-periods';
import { SubscriptionRefused } from '../subscription-status';
import { isPeriodic, type BillingType } from '../billing-types';

/** Subscription line items at most (docs/subscriptions.md, "Limits"). */
export const MAX_SUBSCRIPTION_LINE_ITEMS = 20;

export function requireLineCount(count: number): void {
  if (count > MAX_SUBSCRIPTION_LINE_ITEMS) {
    throw new SubscriptionRefused('TOO_MANY_LINE_ITEMS', `A subscription has at most ${MAX_SUBSCRIPTION_LINE_ITEMS} line items.`, { max: MAX_SUBSCRIPTION_LINE_ITEMS });
  }
}

/**
 * A subscription's lines, as created or after an update: at least one RECURRING or USAGE, and
 * every such line on one billing period, the one the subscription already bills (`established`)
 * or else the first RECURRING line's. `field` names a line's price in the request, when the
 * lines are the request's own (create). Returns the billing period.
 */
export function requireOneBillingPeriod(
  lines: readonly { billingType: BillingType; billingPeriod: BillingPeriod | null; productPriceId: string }[],
  established?: BillingPeriod | null,
  field?: { lines: string; price: (index: number) => string },
): BillingPeriod {
  const recurring = lines.filter((line) => isPeriodic(line.billingType));
  if (recurring.length === 0) {
    throw new SubscriptionRefused('RECURRING_LINE_ITEM_REQUIRED', 'A subscription needs at least one RECURRING or USAGE line item.', field ? { field: field.lines } : {});
  }
  const period = established ?? recurring[0]!.billingPeriod!;
  const usagePrices = new Set<string>();
  for (const [index, line] of lines.entries()) {
    if (line.billingType !== 'USAGE') continue;
    // Two lines of one usage price would each bill everything its meter measured.
    if (usagePrices.has(line.productPriceId)) {
      throw new SubscriptionRefused('DUPLICATE_USAGE_PRICE', `Usage price ${line.productPriceId} is on the subscription once at most: each line would bill all of its meter's usage.`, {
        ...(field ? { field: field.price(index) } : {}),
        product_price_id: line.productPriceId,
      });
    }
    usagePrices.add(line.productPriceId);
  }
  for (const [index, line] of lines.entries()) {
    if (isPeriodic(line.billingType) && !samePeriod(line.billingPeriod!, period)) {
      throw new SubscriptionRefused(
        'BILLING_PERIOD_MISMATCH',
        `Every RECURRING and USAGE line bills every ${period.value} ${period.unit}; price ${line.productPriceId} bills every ${line.billingPeriod!.value} ${line.billingPeriod!.unit}.`,
        { ...(field ? { field: field.price(index) } : {}), product_price_id: line.productPriceId, billing_period_config: period },
      );
    }
  }
  return period;
}
