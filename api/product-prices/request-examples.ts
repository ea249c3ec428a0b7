import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';

export const productPriceRequestExamples = {
  create: {
    product_id: EXAMPLE_IDS.product,
    currency: 'EUR',
    amount: 4900,
    billing_type: 'RECURRING',
    billing_period_config: { value: 1, unit: 'MONTH' },
  },
  get: { id: EXAMPLE_IDS.productPrice },
  list: { pagination: { page_size: 20 } },
} satisfies ResourceRequestExamples<'product-prices'>;
