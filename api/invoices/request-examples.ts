import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';
import { subscriptionRequestExamples } from '../subscriptions/request-examples';

const { id: _subscription, ...proposedUpdate } = subscriptionRequestExamples.update;

export const invoiceRequestExamples = {
  create: {
    customer_id: EXAMPLE_IDS.customer,
    currency: 'EUR',
    line_items: [
      { product_price_id: EXAMPLE_IDS.productPrice, quantity: 3, tax: { mode: 'EXCLUSIVE', rate: 19 } },
      { amount: 1250, description: 'Express shipping', quantity: 1, tax: { mode: 'EXCLUSIVE', rate: 19 } },
    ],
    discounts: [{ coupon_code: 'SPRING-20' }],
    due_at: '2026-12-15T00:00:00.000000Z',
    notes: 'Thank you for your order.',
    merchant_reference: 'ORD-2026-004817',
    collection_method: 'SEND_INVOICE',
  },
  update: {
    id: EXAMPLE_IDS.invoice,
    line_items: [{ amount: 8900, description: 'Onboarding workshop (2 hours)', quantity: 1, tax: { mode: 'EXCLUSIVE', rate: 19 } }],
    notes: 'Workshop on 10 December, Berlin office.',
  },
  finalize: { id: EXAMPLE_IDS.invoice },
  void: { id: EXAMPLE_IDS.invoice },
  delete: { id: EXAMPLE_IDS.invoice },
  get: { id: EXAMPLE_IDS.invoice },
  list: {
    filters: { status: { operator: 'IN', value: ['OPEN', 'DUNNING'] }, customer_id: { operator: 'EQ', value: EXAMPLE_IDS.customer } },
    pagination: { page_size: 20 },
  },
  preview: { subscription_id: EXAMPLE_IDS.subscription, subscription_update: proposedUpdate, proration_date: '2026-12-01T00:00:00.000000Z' },
  pay: { id: EXAMPLE_IDS.invoice, payment_instrument_id: EXAMPLE_IDS.paymentInstrument },
  refund: { id: EXAMPLE_IDS.invoice, amount: 1250, reason: 'Shipping was late; express fee returned.' },
  'list-payments': { id: EXAMPLE_IDS.invoice, pagination: { page_size: 20 } },
  'list-refunds': { id: EXAMPLE_IDS.invoice, pagination: { page_size: 20 } },
} satisfies ResourceRequestExamples<'invoices'>;
