/**
 * The customer balance ledger's vocabulary (docs/customer-balance.md). Sign convention, as the
 * spec's anchors use it: a negative amount or balance is credit the merchant owes the customer,
 * a positive one is debit the customer owes the merchant.
 */
export const BALANCE_TRANSACTION_TYPES = ['ADJUSTMENT', 'APPLIED_TO_INVOICE', 'CREDITED_FROM_INVOICE', 'CREDIT_NOTE'] as const;

export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

/** The balance column and every amount are PostgreSQL integers. */
export const MAX_BALANCE_MAGNITUDE = 2_147_483_647;
