import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/request-examples';

export const settlementRequestExamples = {
  get: { id: EXAMPLE_IDS.settlement },
} satisfies ResourceRequestExamples<'settlements'>;
