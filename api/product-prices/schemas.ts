import { z } from 'zod';
import type { ProductPriceRow } from '../../services/catalogue/product-prices';
import { BILLING_TYPES } from '../../domain/billing-types';
import { formatDateTime } from '../../domain/datetime';
import { dateTime } from '../common/schemas';

export const BILLING_PERIOD_UNITS = ['MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR'] as const;

/** Keeps every amount within the 32-bit columns and far from any real price. */
export const MAX_PRICE_AMOUNT = 999_999_999;

export const billingType = z.enum(BILLING_TYPES);

export const billingPeriodConfig = z
  .strictObject({ value: z.number().int().min(1).max(1000), unit: z.enum(BILLING_PERIOD_UNITS) })
  .meta({ description: 'Every `value` `unit`s, for example {value: 1, unit: MONTH}.' });


export const productPriceObject = z
  .object({
    id: z.string(),
    product_id: z.string(),
    currency: z.string(),
    amount: z.number().int().meta({ description: 'Minor units per unit.' }),
    billing_type: billingType,
    billing_period_config: z.object({ value: z.number().int(), unit: z.enum(BILLING_PERIOD_UNITS) }).optional(),
    tax_category_id: z.string().optional(),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: 'ProductPrice' });

export type ProductPriceObject = z.infer<typeof productPriceObject>;

export function serializeProductPrice(row: ProductPriceRow): ProductPriceObject {
  return {
    id: row.id,
    product_id: row.productId,
    currency: row.currency,
    amount: row.amount,
    billing_type: row.billingType as ProductPriceObject['billing_type'],
    ...(row.billingPeriodValue !== null && row.billingPeriodUnit !== null
      ? { billing_period_config: { value: row.billingPeriodValue, unit: row.billingPeriodUnit as (typeof BILLING_PERIOD_UNITS)[number] } }
      : {}),
    ...(row.taxCategoryId === null ? {} : { tax_category_id: row.taxCategoryId }),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}

export { productPriceSelect, type ProductPriceRow } from '../../services/catalogue/product-prices';
