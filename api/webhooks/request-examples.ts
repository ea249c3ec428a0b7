import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';

export const webhookRequestExamples = {
  create: {
    url: 'https://shop.example.com/billing/webhooks',
    description: 'Order fulfilment',
    event_types: ['INVOICE_PAID', 'INVOICE_VOIDED'],
    channel_id: EXAMPLE_IDS.channel,
  },
  list: { pagination: { page_size: 20 } },
  get: { id: EXAMPLE_IDS.webhookEndpoint },
  patch: { id: EXAMPLE_IDS.webhookEndpoint, status: 'ACTIVE' },
  delete: { id: EXAMPLE_IDS.webhookEndpoint },
  'rotate-key': { id: EXAMPLE_IDS.webhookEndpoint, rotation_period: 86400 },
  'list-deliveries': {
    endpoint_id: EXAMPLE_IDS.webhookEndpoint,
    filters: { status: { operator: 'EQ', value: 'FAILED' } },
    pagination: { page_size: 20 },
  },
  redeliver: { event_id: EXAMPLE_IDS.event, endpoint_id: EXAMPLE_IDS.webhookEndpoint },
  'send-test-event': { id: EXAMPLE_IDS.webhookEndpoint },
} satisfies ResourceRequestExamples<'webhooks'>;
