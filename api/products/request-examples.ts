import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';

export const productRequestExamples = {
  create: { name: 'Pro plan' },
  get: { id: EXAMPLE_IDS.product },
  list: { pagination: { page_size: 20 } },
} satisfies ResourceRequestExamples<'products'>;
