/**
 * The API's enum values in words, for everything the dashboard shows or offers. The map holds the
 * values the API documents, worded where the code alone says little (`DUNNING`, `REDEMPTION`,
 * `REQUIRES_ACTION`); anything else, a value added later included, reads as its code in
 * sentence case (`PAST_DUE` → `Past due`), never as the raw code.
 */
const WORDS: Record<string, string> = {
  // Invoices (docs/invoices.md)
  DRAFT: 'Draft',
  OPEN: 'Open',
  PAID: 'Paid',
  VOIDED: 'Voided',
  DUNNING: 'In dunning (retrying payment)',
  UNPAID: 'Unpaid',
  CHARGE_AUTOMATICALLY: 'Charge automatically',
  SEND_INVOICE: 'Send invoice',
  // Payments and refunds (docs/payments.md)
  SUCCEEDED: 'Succeeded',
  DECLINED: 'Declined',
  FAILED: 'Failed',
  PROCESSING: 'Processing',
  PENDING: 'Pending',
  REQUIRES_ACTION: 'Awaiting the customer’s authentication',
  AWAITING_PROVIDER: 'Awaiting the provider',
  // Credit notes (docs/credit-notes.md)
  ISSUED: 'Issued',
  DUPLICATE: 'Duplicate',
  FRAUDULENT: 'Fraudulent',
  ORDER_CHANGE: 'Order change',
  PRODUCT_UNSATISFACTORY: 'Product unsatisfactory',
  OTHER: 'Other',
  // Subscriptions (docs/subscriptions.md)
  CREATED: 'Created',
  TRIALING: 'In trial',
  ACTIVE: 'Active',
  REDEMPTION: 'In redemption (payment overdue)',
  CANCELLED: 'Cancelled',
  EXPIRED: 'Expired',
  PERIOD_END: 'At the end of the period',
  IMMEDIATELY: 'Immediately',
  // Customer balance (docs/customer-balance.md)
  ADJUSTMENT: 'Adjustment',
  APPLIED_TO_INVOICE: 'Applied to an invoice',
  CREDITED_FROM_INVOICE: 'Credited from an invoice',
  CREDIT_NOTE: 'Credit note',
  // Customers, keys, webhooks, meters, reports
  INDIVIDUAL: 'Individual',
  BUSINESS: 'Business',
  INACTIVE: 'Inactive',
  DISABLED: 'Disabled',
  ARCHIVED: 'Archived',
  REVOKED: 'Revoked',
  INVOICES: 'Invoices',
  SUBSCRIPTIONS: 'Subscriptions',
  // Dashboard roles (docs/dashboard.md, "Roles")
  MERCHANT_ADMIN: 'Merchant admin',
  DEVELOPER: 'Developer',
  SUPPORT: 'Support',
  // Prices (docs/products.md)
  RECURRING: 'Recurring',
  ONE_TIME: 'One time',
  USAGE: 'Usage',
};

/** `SEND_INVOICE` → `Send invoice`. */
export function enumLabel(code: string): string {
  const known = WORDS[code];
  if (known) return known;
  const words = code.toLowerCase().replace(/_+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : code;
}
