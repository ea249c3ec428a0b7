import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';

export const usageEventRequestExamples = {
  ingest: {
    events: [
      { event_id: 'req_8f14e45f', event_name: 'api.request', customer_id: EXAMPLE_IDS.customer, timestamp: '2026-11-21T09:30:00.000000Z', properties: { region: 'eu', tokens: 1200 } },
      { event_id: 'req_c9f0f895', event_name: 'api.request', customer_id: EXAMPLE_IDS.customer, timestamp: '2026-11-21T09:30:02.500000Z', properties: { region: 'us', tokens: 80 } },
    ],
  },
} satisfies ResourceRequestExamples<'usage-events'>;
