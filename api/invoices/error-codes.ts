import type { ResourceErrorCodes } from '../openapi/operation-types';
import { subscriptionErrorCodes } from '../subscriptions/error-codes';

const STATUS = 'The invoice’s status does not allow the operation (docs/invoices.md); `context.status`, `context.allowed_statuses`.';

/** What an invoice's lines, discounts and instrument may name (services/invoices/repository.ts). */
const REFERENCES = {
  PRODUCT_PRICE_NOT_FOUND: 'A line’s `product_price_id` is not a price of the account; `context.field`, `context.product_price_id`.',
  CURRENCY_MISMATCH: 'A line’s price is in another currency than the invoice; `context.price_currency`, `context.currency`.',
  USAGE_PRICE_NOT_INVOICEABLE: 'A line names a USAGE price: usage is billed by a subscription’s meter (docs/usage.md), not by hand; `context.field`, `context.product_price_id`.',
  COUPON_NOT_FOUND: 'A discount names no coupon of the account; `context.coupon_id` or `context.coupon_code`.',
  COUPON_CURRENCY_MISMATCH: 'An AMOUNT coupon in another currency than the invoice; `context.coupon_currency`, `context.currency`.',
  PAYMENT_INSTRUMENT_NOT_FOUND: '`payment_instrument_id` is not an instrument of the invoice’s customer.',
};

export const invoiceErrorCodes = {
  create: {
    CUSTOMER_NOT_FOUND: '`customer_id` names no customer the key can see (or none in `channel_id`); `context.customer_id`.',
    ...REFERENCES,
  },
  update: { INCOMPATIBLE_STATUS: `DRAFT only. ${STATUS}`, ...REFERENCES },
  finalize: {
    INCOMPATIBLE_STATUS: `DRAFT only. ${STATUS}`,
    FINALIZATION_FAILED:
      'The draft cannot be issued; `context.reasons` lists `{code, message}` for each (docs/invoices.md). InvoiceFinalizationFailed is recorded; the invoice stays DRAFT.',
  },
  void: { INCOMPATIBLE_STATUS: `OPEN, DUNNING or UNPAID only, and no payment of it under way. ${STATUS}` },
  delete: { INCOMPATIBLE_STATUS: `DRAFT only. ${STATUS}` },
  preview: {
    ...subscriptionErrorCodes.update,
    USAGE_CHARGE_TOO_LARGE:
      'The next invoice’s usage to date would make a line larger than an invoice line can be (docs/usage.md); `context.amount_decimal`, `context.max_amount`. The invoice itself will be refused at issue until it is resolved.',
    PRORATION_DATE_OUT_OF_PERIOD:
      '`proration_date` is outside the period the subscription is in now (from the start of its billed period to before its next billing); `context.period_start_at`, `context.next_billing_at`.',
  },
  pay: {
    INCOMPATIBLE_STATUS: 'The invoice is not OPEN, DUNNING or UNPAID; `context.status`, `context.allowed_statuses`. docs/invoice-payments.md.',
    PAYMENT_INSTRUMENT_NOT_FOUND: 'Unknown instrument, another customer’s, or in a channel the key cannot reach; `context.payment_instrument_id`.',
    PAYMENT_INSTRUMENT_NOT_ACTIVE: 'The instrument is REVOKED or EXPIRED; `context.status`.',
    INVOICE_OVERDUE: 'A SEND_INVOICE invoice more than 30 days past `due_at`; `context.due_at`, `context.payable_until`.',
    OPEN_PAYMENT_LIMIT_REACHED: 'A charge of the invoice is already under way (another pay or a collection attempt); `context.invoice_id`.',
  },
  refund: {
    INCOMPATIBLE_STATUS: 'The invoice is not PAID, or has no captured payment; `context.status`.',
    REFUND_EXCEEDS_PAYMENT:
      '`amount` (default: the rest) is more than the invoice has left to give back (paid − refunds − the paid parts of its ISSUED credit notes, at most what its payment has left), or nothing is; `context.amount`, `context.refundable`, `context.payment_id`, `context.amount_paid`, `context.given_back`. docs/invoice-payments.md.',
  },
} satisfies ResourceErrorCodes<'invoices'>;
