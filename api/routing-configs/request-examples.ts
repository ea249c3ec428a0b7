import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';

export const routingConfigRequestExamples = {
  get: { id: EXAMPLE_IDS.routingConfig },
  'get-version': { id: EXAMPLE_IDS.routingConfigVersion },
  list: { pagination: { page_size: 20 } },
  create: { name: 'Web shop routing', channel_id: EXAMPLE_IDS.channel },
  'create-version': {
    routing_config_id: EXAMPLE_IDS.routingConfig,
    route_tree: {
      rules: [
        {
          name: 'euro-small',
          match: { currencies: ['EUR'], amount: { min: 0, max: 10000 }, card_brands: ['VISA', 'MASTERCARD'], customer_countries: ['DEU', 'FRA'] },
          providers: ['sandbox-beta', 'sandbox-alpha'],
        },
      ],
      default_providers: ['sandbox-alpha', 'sandbox-beta'],
    },
  },
  'publish-version': { id: EXAMPLE_IDS.routingConfigVersion },
} satisfies ResourceRequestExamples<'routing-configs'>;
