/** Why an invoice exists (section 2.3 `billing_reason`). */
export const BILLING_REASONS = ['MANUAL', 'SUBSCRIPTION_CREATE', 'SUBSCRIPTION_CYCLE'] as const;

export type BillingReason = (typeof BILLING_REASONS)[number];
