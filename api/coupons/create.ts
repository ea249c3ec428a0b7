import { z } from 'zod';
import { hasAtMostFourDecimals } from '../../domain/invoice-amounts';
import { createCoupon as createCouponService } from '../../services/catalogue/coupons';
import { currency } from '../customers/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { MAX_PRICE_AMOUNT } from '../product-prices/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { calculationType, couponCode, couponObject, serializeCoupon } from './schemas';

export const createCouponRequest = z
  .strictObject({
    code: couponCode,
    calculation_type: calculationType,
    calculation_value: z
      .number()
      .meta({ description: 'PERCENTAGE: more than 0 and at most 100, up to four decimals. AMOUNT: a positive integer in minor units.' }),
    currency: currency.optional().meta({ description: 'Required for AMOUNT, refused for PERCENTAGE.' }),
  })
  .superRefine((coupon, ctx) => {
    const value = coupon.calculation_value;
    const issue = (path: string, type: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [path], message, params: { type } });
    if (coupon.calculation_type === 'PERCENTAGE') {
      if (value <= 0) issue('calculation_value', 'MIN', 'A percentage is more than 0.');
      else if (value > 100) issue('calculation_value', 'MAX', 'A percentage is at most 100.');
      else if (!hasAtMostFourDecimals(value)) issue('calculation_value', 'FORMAT', 'At most four decimal places.');
      if (coupon.currency !== undefined) issue('currency', 'INVALID', 'A PERCENTAGE coupon has no currency.');
    } else {
      if (!Number.isInteger(value)) issue('calculation_value', 'FORMAT', 'An amount is an integer in minor units.');
      else if (value < 1) issue('calculation_value', 'MIN', 'An amount is at least 1.');
      else if (value > MAX_PRICE_AMOUNT) issue('calculation_value', 'MAX', `An amount is at most ${MAX_PRICE_AMOUNT}.`);
      if (coupon.currency === undefined) issue('currency', 'REQUIRED', 'Required for an AMOUNT coupon.');
    }
  })
  .meta({
    oneOf: [
      {
        properties: { calculation_type: { const: 'PERCENTAGE' }, calculation_value: { exclusiveMinimum: 0, maximum: 100, multipleOf: 0.0001 } },
        not: { required: ['currency'] },
      },
      {
        properties: { calculation_type: { const: 'AMOUNT' }, calculation_value: { type: 'integer', minimum: 1, maximum: MAX_PRICE_AMOUNT } },
        required: ['currency'],
      },
    ],
  });

export const createCoupon = authorizedProcedure
  .meta(
    operation('coupons/create', {
      summary: 'Create a coupon',
      description: 'A PERCENTAGE or AMOUNT discount that invoices name by id or code. Coupons are immutable.',
    }),
  )
  .input(createCouponRequest)
  .output(couponObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'coupons/create', input, (ctx) =>
      ctx.transaction(async (tx) =>
        serializeCoupon(
          await createCouponService(ctx, tx, ctx.principal.accountId, {
            code: input.code,
            calculationType: input.calculation_type,
            calculationValue: input.calculation_value,
            currency: input.currency,
          }),
        ),
      ),
    ),
  );
