import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';

export const customerPortalSessionRequestExamples = {
  create: { customer_id: EXAMPLE_IDS.customer, return_url: 'https://merchant.example/account', locale: 'de' },
} satisfies ResourceRequestExamples<'customer-portal-sessions'>;
