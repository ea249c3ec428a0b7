import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';

export const paymentInstrumentRequestExamples = {
  tokenize: {
    customer_id: EXAMPLE_IDS.customer,
    // The sandbox's approving Visa test card (docs/sandbox.md).
    card: { number: '4242 4242 4242 4242', exp_month: 8, exp_year: 2029, cardholder_name: 'Anna Schmidt' },
  },
  // A PaymentMethod Stripe.js created in the customer's browser (docs/payments-stripe.md).
  attach: { customer_id: EXAMPLE_IDS.customer, provider: 'stripe', payment_method_id: 'pm_1PqExampleCard4242' },
  get: { id: EXAMPLE_IDS.paymentInstrument },
  list: { customer_id: EXAMPLE_IDS.customer, pagination: { page_size: 20 } },
  revoke: { id: EXAMPLE_IDS.paymentInstrument },
} satisfies ResourceRequestExamples<'payment-instruments'>;
