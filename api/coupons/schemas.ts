import { z } from 'zod';
import type { CouponRow } from '../../services/catalogue/coupons';
import { formatDateTime } from '../../domain/datetime';
import { dateTime } from '../common/schemas';

export const CALCULATION_TYPES = ['PERCENTAGE', 'AMOUNT'] as const;

export const calculationType = z.enum(CALCULATION_TYPES);

export const couponCode = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { message: 'Expected 1 to 64 letters, digits, `_` or `-`.' })
  .meta({ description: 'Unique per account, case-sensitive.' });


export const couponObject = z
  .object({
    id: z.string(),
    code: z.string(),
    calculation_type: calculationType,
    calculation_value: z.number().meta({ description: 'Percent for PERCENTAGE (up to four decimals), minor units for AMOUNT.' }),
    currency: z.string().optional().meta({ description: 'AMOUNT coupons only: the currency of the amount.' }),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: 'Coupon' });

export type CouponObject = z.infer<typeof couponObject>;

export function serializeCoupon(row: CouponRow): CouponObject {
  return {
    id: row.id,
    code: row.code,
    calculation_type: row.calculationType as CouponObject['calculation_type'],
    calculation_value: Number(row.calculationValue.toString()),
    ...(row.currency === null ? {} : { currency: row.currency }),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}

export { couponSelect, type CouponRow } from '../../services/catalogue/coupons';
