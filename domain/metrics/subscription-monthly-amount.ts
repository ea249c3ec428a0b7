import type { SubscriptionState } from '../subscriptions/state';
import { monthlyAmount } from './mrr';

/** A subscription's monthly amount (domain/metrics/mrr.ts) from its state, as its row stores it. */
export function subscriptionMonthlyAmount(state: Pick<SubscriptionState, 'lineItems' | 'discounts'>): number {
  return monthlyAmount({
    lines: state.lineItems,
    discounts: state.discounts.map((discount) => ({ type: discount.calculation_type, value: discount.calculation_value })),
    billingPeriod: state.lineItems.find((line) => line.billingType === 'RECURRING')?.billingPeriod ?? null,
  });
}
