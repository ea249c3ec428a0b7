import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { catalogueId } from '../products/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { couponObject, couponSelect, serializeCoupon } from './schemas';

export const getCoupon = authorizedProcedure
  .meta(operation('coupons/get', { summary: 'Get a coupon' }))
  .input(z.strictObject({ id: catalogueId }))
  .output(couponObject)
  .query(async ({ ctx, input }) => {
    const row = await ctx.db.coupon.findFirst({ where: { id: input.id, accountId: ctx.principal.accountId }, select: couponSelect });
    if (!row) throw ApiError.notFound('Coupon', input.id);
    return serializeCoupon(row);
  });
