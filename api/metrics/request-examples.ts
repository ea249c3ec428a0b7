import type { ResourceRequestExamples } from '../openapi/operation-types';

const november = { from: '2026-11-01T00:00:00.000000Z', to: '2026-12-01T00:00:00.000000Z' };

export const metricsRequestExamples = {
  'get-overview': { period: november, currency: 'EUR' },
  'get-daily-revenue': { period: november, currency: 'EUR' },
  'get-mrr-history': { currency: 'EUR' },
  'get-subscription-counts': { currency: 'EUR' },
} satisfies ResourceRequestExamples<'metrics'>;
