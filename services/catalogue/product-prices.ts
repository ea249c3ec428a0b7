import { ApiError } from '../../domain/errors';
import { newUuid } from '../../domain/ids';
import type { Prisma } from '../../prisma/client';

export const productPriceSelect = {
  id: true,
  productId: true,
  currency: true,
  amount: true,
  billingType: true,
  billingPeriodValue: true,
  billingPeriodUnit: true,
  taxCategoryId: true,
  createdAt: true,
  updatedAt: true,
  product: { select: { name: true, description: true } },
} as const;

export type ProductPriceRow = Prisma.ProductPriceGetPayload<{ select: typeof productPriceSelect }>;

export interface NewProductPrice {
  productId: string;
  currency: string;
  amount: number;
  billingType: string;
  billingPeriod?: { value: number; unit: string };
  taxCategoryId?: string;
}

/** product-prices/create in the caller's transaction: the product must be the account's (422 PRODUCT_NOT_FOUND). */
export async function createProductPrice(deps: { now: () => Date }, tx: Prisma.TransactionClient, accountId: string, price: NewProductPrice): Promise<ProductPriceRow> {
  const product = await tx.product.count({ where: { id: price.productId, accountId } });
  if (!product) {
    throw new ApiError('PRODUCT_NOT_FOUND', `Product ${price.productId} does not exist.`, { product_id: price.productId });
  }
  const now = deps.now();
  return tx.productPrice.create({
    data: {
      id: newUuid(now.getTime()),
      accountId,
      productId: price.productId,
      currency: price.currency,
      amount: price.amount,
      billingType: price.billingType,
      billingPeriodValue: price.billingPeriod?.value ?? null,
      billingPeriodUnit: price.billingPeriod?.unit ?? null,
      taxCategoryId: price.taxCategoryId ?? null,
      createdAt: now,
      updatedAt: now,
    },
    select: productPriceSelect,
  });
}
