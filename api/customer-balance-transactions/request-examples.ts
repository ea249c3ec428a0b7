import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';

export const customerBalanceTransactionRequestExamples = {
  create: {
    customer_id: EXAMPLE_IDS.customer,
    currency: 'EUR',
    amount: -2500,
    description: 'Goodwill credit for the delayed March delivery',
  },
  list: { customer_id: EXAMPLE_IDS.customer, pagination: { page_size: 20 } },
} satisfies ResourceRequestExamples<'customer-balance-transactions'>;
