import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';

export const subscriptionRequestExamples = {
  create: {
    customer_id: EXAMPLE_IDS.customer,
    payment_instrument_id: EXAMPLE_IDS.paymentInstrument,
    collection_method: 'CHARGE_AUTOMATICALLY',
    line_items: [{ product_price_id: EXAMPLE_IDS.productPrice, quantity: 5, tax: { mode: 'EXCLUSIVE', rate: 19 } }],
    trial: { type: 'FREE', end_at: '2027-01-01T00:00:00.000000Z' },
    merchant_reference: 'CONTRACT-2026-0193',
    metadata: { sales_rep: 'j.weber' },
  },
  get: { id: EXAMPLE_IDS.subscription },
  list: { pagination: { page_size: 20 } },
  'list-status-history': { id: EXAMPLE_IDS.subscription, pagination: { page_size: 20 } },
  cancel: { id: EXAMPLE_IDS.subscription, mode: 'PERIOD_END', reason: 'CANCELLATION_REQUESTED', comment: 'Customer is moving to an annual contract.' },
  'delete-cancellation': { id: EXAMPLE_IDS.subscription },
  update: {
    id: EXAMPLE_IDS.subscription,
    line_items: { update: [{ id: EXAMPLE_IDS.subscriptionLineItem, quantity: 8 }] },
    proration_credit: 'CUSTOMER_BALANCE',
  },
} satisfies ResourceRequestExamples<'subscriptions'>;
