import { z } from 'zod';
import type { ProductPriceRow } from '../../services/catalogue/product-prices';
import { BILLING_TYPES } from '../../domain/billing-types';
import { formatDateTime } from '../../domain/datetime';
import type { UsageModel } from '../../domain/usage/pricing';
import { dateTime } from '../common/schemas';

export const BILLING_PERIOD_UNITS = ['MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR'] as const;

/** Keeps every amount within the 32-bit columns and far from any real price. */
export const MAX_PRICE_AMOUNT = 999_999_999;

export const billingType = z.enum(BILLING_TYPES);

export const billingPeriodConfig = z
  .strictObject({ value: z.number().int().min(1).max(1000), unit: z.enum(BILLING_PERIOD_UNITS) })
  .meta({ description: 'Every `value` `unit`s, for example {value: 1, unit: MONTH}.' });

const usageTierObject = z.object({ up_to: z.number().int().nullable(), unit_amount_decimal: z.string(), flat_amount: z.number().int() });

/** Extension (docs/usage.md, "Usage prices"): how a USAGE price turns its meter's quantity into an amount. */
export const usageModelObject = z
  .discriminatedUnion('model', [
    z.object({ model: z.literal('PER_UNIT'), unit_amount_decimal: z.string() }),
    z.object({ model: z.literal('PACKAGE'), package_size: z.number().int(), package_amount: z.number().int() }),
    z.object({ model: z.literal('GRADUATED'), tiers: z.array(usageTierObject) }),
    z.object({ model: z.literal('VOLUME'), tiers: z.array(usageTierObject) }),
  ])
  .meta({ id: 'UsageModel' });

export const productPriceObject = z
  .object({
    id: z.string(),
    product_id: z.string(),
    currency: z.string(),
    amount: z.number().int().meta({ description: 'Minor units per unit; 0 on a USAGE price, which its usage_model prices.' }),
    billing_type: billingType,
    billing_period_config: z.object({ value: z.number().int(), unit: z.enum(BILLING_PERIOD_UNITS) }).optional(),
    tax_category_id: z.string().optional(),
    meter_id: z.string().optional().meta({ description: 'Extension, USAGE only: the meter whose quantity it prices.' }),
    usage_model: usageModelObject.optional().meta({ description: 'Extension, USAGE only.' }),
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
    ...(row.meterId === null ? {} : { meter_id: row.meterId }),
    ...(row.usageModel === null ? {} : { usage_model: row.usageModel as UsageModel }),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}

export { productPriceSelect, type ProductPriceRow } from '../../services/catalogue/product-prices';
