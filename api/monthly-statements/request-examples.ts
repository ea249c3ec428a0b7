import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';

export const monthlyStatementRequestExamples = {
  list: {
    filters: { legal_entity_id: { operator: 'EQ', value: EXAMPLE_IDS.legalEntity }, currency: { operator: 'EQ', value: 'EUR' } },
    pagination: { page_size: 12 },
  },
} satisfies ResourceRequestExamples<'monthly-statements'>;
