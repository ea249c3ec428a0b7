import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';

export const settlementRequestExamples = {
  get: { id: EXAMPLE_IDS.settlement },
  list: {
    filters: { settlement_date: { operator: 'RANGE', value: { from: '2026-11-01', to: '2026-11-30' } }, currency: { operator: 'EQ', value: 'EUR' } },
    pagination: { page_size: 20 },
  },
} satisfies ResourceRequestExamples<'settlements'>;
