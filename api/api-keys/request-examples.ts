import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';

export const apiKeyRequestExamples = {
  create: {
    name: 'Checkout backend',
    description: 'Creates invoices and takes payments for the web shop.',
    channel_ids: [EXAMPLE_IDS.channel],
    permissions: ['customers:create', 'customers:get', 'invoices:create', 'invoices:finalize', 'invoices:pay'],
  },
  list: { pagination: { page_size: 20 } },
  get: { id: EXAMPLE_IDS.apiKey },
  rotate: { id: EXAMPLE_IDS.apiKey, rotation_period: 3600 },
  revoke: { id: EXAMPLE_IDS.apiKey },
} satisfies ResourceRequestExamples<'api-keys'>;
