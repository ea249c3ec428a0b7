import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { ResourceRequestExamples } from '../openapi/operation-types';

export const couponRequestExamples = {
  create: { code: 'SPRING-20', calculation_type: 'PERCENTAGE', calculation_value: 20 },
  get: { id: EXAMPLE_IDS.coupon },
  list: { pagination: { page_size: 20 } },
} satisfies ResourceRequestExamples<'coupons'>;
