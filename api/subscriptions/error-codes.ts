import type { ResourceErrorCodes } from '../openapi/operation-types';

const STATUS = 'The subscription’s status does not allow the change (docs/subscriptions.md), or its run has ended; `context.status` or `context.subscription_id`.';

/** What a subscription's lines, discounts and instrument may name (services/subscriptions/references.ts). */
const REFERENCES = {
  PRODUCT_PRICE_NOT_FOUND: 'A line’s `product_price_id` is not a price of the account; `context.field`, `context.product_price_id`.',
  CURRENCY_MISMATCH: 'A line’s price is in another currency than the subscription’s other lines; `context.field`.',
  RECURRING_LINE_ITEM_REQUIRED: 'No RECURRING or USAGE line item would be left; `context.field`.',
  METER_NOT_FOUND: 'A line’s USAGE price bills a meter that is archived (docs/usage.md); `context.field`, `context.meter_id`, `context.status`.',
  DUPLICATE_USAGE_PRICE: 'A USAGE price on two lines: each would bill all of its meter’s usage (docs/usage.md); `context.product_price_id`.',
  BILLING_PERIOD_MISMATCH: 'A RECURRING line bills on another period than the subscription; `context.product_price_id`, `context.billing_period_config`.',
  PAYMENT_INSTRUMENT_NOT_FOUND: '`payment_instrument_id` is not an instrument of the customer; `context.field`.',
  PAYMENT_INSTRUMENT_NOT_ACTIVE: 'The instrument is REVOKED or EXPIRED; `context.payment_instrument_id`, `context.status`.',
  COUPON_NOT_FOUND: 'A discount names no coupon of the account; `context.coupon_id` or `context.coupon_code`.',
  COUPON_CURRENCY_MISMATCH: 'An AMOUNT coupon in another currency than the subscription; `context.coupon_currency`, `context.currency`.',
  CUSTOMER_ADDRESS_COUNTRY_REQUIRED: 'A line charges tax and the customer is TAXABLE but has no address country; `context.field`.',
};

export const subscriptionErrorCodes = {
  create: {
    CUSTOMER_NOT_FOUND: '`customer_id` names no customer the key can see (or none in `channel_id`); `context.customer_id`.',
    ...REFERENCES,
    PAYMENT_INSTRUMENT_REQUIRED:
      'CHARGE_AUTOMATICALLY (asked for, or for a PAID trial) with no `payment_instrument_id` and no default instrument on the customer; `context.field`.',
  },
  update: {
    INCOMPATIBLE_STATUS: STATUS,
    TRIAL_NOT_ACTIVE: '`end_trial` for a subscription that is not TRIALING; `context.status`.',
    CANCELLATION_SCHEDULED: '`end_trial` while a cancellation is scheduled; remove it first. `context.cancel_at`.',
    LINE_ITEM_NOT_FOUND: '`line_items.update[].id` or `line_items.remove[]` is not a line of the subscription, or a line is both updated and removed; `context.field`, `context.id`.',
    TOO_MANY_LINE_ITEMS: 'The change would leave more than 20 line items; `context.max`.',
    USAGE_LINE_ITEM_LOCKED: 'A usage line that has measured usage is removed or repriced: it stays until the subscription ends (docs/usage.md); `context.field`, `context.id`.',
    ...REFERENCES,
  },
  cancel: {
    INCOMPATIBLE_STATUS: STATUS,
    CANCELLATION_ALREADY_SCHEDULED: 'A PERIOD_END cancellation is already scheduled; `context.cancel_at`.',
    NO_PERIOD_END: 'PERIOD_END in an open-ended trial, which has no period end; cancel IMMEDIATELY or end the trial first.',
  },
  'delete-cancellation': {
    INCOMPATIBLE_STATUS: STATUS,
    CANCELLATION_NOT_SCHEDULED: 'No PERIOD_END cancellation is scheduled (none, or it was immediate); `context.status`.',
  },
} satisfies ResourceErrorCodes<'subscriptions'>;
