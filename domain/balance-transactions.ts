/**
 * The customer balance ledger's vocabulary (docs/customer-balance.md). Sign convention, as the
 * spec's anchors use it: a negative amount or balance is credit the merchant owes the customer,
 * a positive one is debit the customer owes the merchant.
 */
export const BALANCE_TRANSACTION_TYPES = ['ADJUSTMENT', 'APPLIED_TO_INVOICE', 'CREDITED_FROM_INVOICE', 'CREDIT_NOTE'] as const;

export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

/**
 * Where a subscription change's proration credit goes (docs/customer-balance.md, "Proration
 * credits"): CUSTOMER_BALANCE, the default, issues a credit invoice whose magnitude the next
 * invoices draw on; REFUND gives it back to the card as before.
 */
export const PRORATION_CREDIT_DESTINATIONS = ['CUSTOMER_BALANCE', 'REFUND'] as const;

export type ProrationCreditDestination = (typeof PRORATION_CREDIT_DESTINATIONS)[number];

/** The balance column and every amount are PostgreSQL integers. */
export const MAX_BALANCE_MAGNITUDE = 2_147_483_647;
