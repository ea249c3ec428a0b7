/** How a price bills: every period (RECURRING, with a billing period) or once (ONE_TIME). */
export const BILLING_TYPES = ['RECURRING', 'ONE_TIME'] as const;
export type BillingType = (typeof BILLING_TYPES)[number];
