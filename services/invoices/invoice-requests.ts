import type { TaxMode } from '../../domain/invoice-amounts';

/**
 * A requested line as the services take it, once transport validated it (the zod
 * `lineItemRequest` in api/invoices/schemas.ts produces exactly this).
 */
export type LineItemRequest = {
  product_price_id?: string;
  amount?: number;
  description?: string;
  quantity: number;
  tax?: { category_id?: string; mode: TaxMode; rate: number };
};

/** A requested coupon: by id or by code, one of the two. */
export type DiscountRequest = {
  coupon_id?: string;
  coupon_code?: string;
};
