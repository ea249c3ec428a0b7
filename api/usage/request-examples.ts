import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';

export const usageRequestExamples = {
  summary: { customer_id: EXAMPLE_IDS.customer, meter_id: EXAMPLE_IDS.meter, window: 'DAY', from: '2026-11-01T00:00:00.000000Z', to: '2026-11-08T00:00:00.000000Z', group_by: true },
} satisfies ResourceRequestExamples<'usage'>;
