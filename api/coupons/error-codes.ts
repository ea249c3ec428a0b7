import type { ResourceErrorCodes } from '../openapi/operation-types';

export const couponErrorCodes = {
  create: {
    COUPON_CODE_ALREADY_EXISTS: 'The account has a coupon with this `code`; `context.code`, `context.coupon_id`.',
  },
} satisfies ResourceErrorCodes<'coupons'>;
