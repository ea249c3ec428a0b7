import { router } from '../trpc';
import { createCoupon } from './create';
import { getCoupon } from './get';
import { listCoupons } from './list';

export const couponsRouter = router({ create: createCoupon, get: getCoupon, list: listCoupons });
