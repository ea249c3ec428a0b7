import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';

export const reportRequestExamples = {
  create: { report_type: 'INVOICES', date_from: '2026-10-01', date_to: '2026-10-31' },
  download: { id: EXAMPLE_IDS.report },
  list: { filters: { status: { operator: 'EQ', value: 'SUCCEEDED' } }, pagination: { page_size: 20 } },
} satisfies ResourceRequestExamples<'reports'>;
