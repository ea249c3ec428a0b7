import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';

export const meterRequestExamples = {
  create: {
    name: 'Storage (GB)',
    event_name: 'storage.snapshot',
    aggregation: 'MAX',
    property: 'gigabytes',
    filters: [{ property: 'tier', operator: 'IN', values: ['standard', 'archive'] }],
    group_by: ['region'],
  },
  get: { id: EXAMPLE_IDS.meter },
  list: { filters: { status: { operator: 'EQ', value: 'ACTIVE' } }, pagination: { page_size: 20 } },
  update: { id: EXAMPLE_IDS.meter, group_by: ['region', 'tier'], effective_from: '2026-12-01T00:00:00.000000Z' },
  archive: { id: EXAMPLE_IDS.meter },
} satisfies ResourceRequestExamples<'meters'>;
