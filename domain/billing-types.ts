/**
 * How a price bills: every period in advance (RECURRING, with a billing period), once
 * (ONE_TIME), or every period in arrears for what a meter measured (USAGE, with a billing period
 * and a usage model: docs/usage.md).
 */
export const BILLING_TYPES = ['RECURRING', 'ONE_TIME', 'USAGE'] as const;
export type BillingType = (typeof BILLING_TYPES)[number];

/** Prices that bill every period, and so set a subscription's billing period. */
export function isPeriodic(billingType: BillingType): boolean {
  return billingType === 'RECURRING' || billingType === 'USAGE';
}
