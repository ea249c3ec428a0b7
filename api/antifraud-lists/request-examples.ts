import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';

export const antifraudListRequestExamples = {
  create: { name: 'Blocked card holders', field: 'CARDHOLDER', action: 'BLOCK' },
  update: { id: EXAMPLE_IDS.antifraudList, name: 'Blocked card holders (chargebacks)' },
  list: { filters: { field: { operator: 'EQ', value: 'CARDHOLDER' } }, pagination: { page_size: 20 } },
  get: { id: EXAMPLE_IDS.antifraudList },
  'create-item': {
    list_id: EXAMPLE_IDS.antifraudList,
    field_value: 'John Doe',
    expired_at: '2027-06-30T00:00:00.000000Z',
    created_by: 'risk-team@example.com',
  },
  'delete-item': { id: EXAMPLE_IDS.antifraudListItem },
  'list-item': {
    list_id: EXAMPLE_IDS.antifraudList,
    filters: { field_value: { operator: 'CONTAINS', value: 'Doe' } },
    pagination: { page_size: 20 },
  },
} satisfies ResourceRequestExamples<'antifraud-lists'>;
