import { z } from 'zod';
import { dateTimeCondition, dateTimeRangeFilter, stringCondition, valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { calculationType, couponCode, couponObject, couponSelect, serializeCoupon } from './schemas';

export const listCouponsRequest = z.strictObject({
  filters: z
    .strictObject({
      code: valueFilter(['EQ', 'IN'], couponCode).optional(),
      calculation_type: valueFilter(['EQ'], calculationType).optional(),
      created_at: dateTimeRangeFilter.optional(),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

export const listCoupons = authorizedProcedure
  .meta(operation('coupons/list', { summary: 'List coupons, newest first' }))
  .input(listCouponsRequest)
  .output(z.object({ items: z.array(couponObject), pagination: paginationResponse }))
  .query(({ ctx, input }) => {
    const filters = input.filters ?? {};
    const where = {
      accountId: ctx.principal.accountId,
      ...(filters.code ? { code: stringCondition(filters.code) } : {}),
      ...(filters.calculation_type ? { calculationType: stringCondition(filters.calculation_type) } : {}),
      ...(filters.created_at ? { createdAt: dateTimeCondition(filters.created_at) } : {}),
    };
    return paginate(
      input.pagination,
      requestHash('coupons/list', { filters }),
      (beforeId, take) =>
        ctx.db.coupon.findMany({ where: beforeId ? { ...where, id: { lt: beforeId } } : where, orderBy: { id: 'desc' }, take, select: couponSelect }),
      serializeCoupon,
    );
  });
