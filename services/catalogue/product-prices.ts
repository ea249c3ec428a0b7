import { ApiError } from '../../domain/errors';
import { newUuid } from '../../domain/ids';
import type { UsageModel } from '../../domain/usage/pricing';
import type { Prisma } from '../../prisma/client';
import { meterWithVersions } from '../usage/meter-definitions';

export const productPriceSelect = {
  id: true,
  productId: true,
  currency: true,
  amount: true,
  billingType: true,
  billingPeriodValue: true,
  billingPeriodUnit: true,
  taxCategoryId: true,
  meterId: true,
  usageModel: true,
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
  /** USAGE only: the meter, and the model that prices its quantity. */
  usage?: { meterId: string; model: UsageModel };
}

/**
 * product-prices/create in the caller's transaction: the product must be the account's (422
 * PRODUCT_NOT_FOUND), and a USAGE price's meter an ACTIVE meter of the account (422 METER_NOT_FOUND).
 */
export async function createProductPrice(deps: { now: () => Date }, tx: Prisma.TransactionClient, accountId: string, price: NewProductPrice): Promise<ProductPriceRow> {
  const product = await tx.product.count({ where: { id: price.productId, accountId } });
  if (!product) {
    throw new ApiError('PRODUCT_NOT_FOUND', `Product ${price.productId} does not exist.`, { product_id: price.productId });
  }
  if (price.usage) {
    const meter = await meterWithVersions(tx, accountId, price.usage.meterId);
    if (!meter || meter.status !== 'ACTIVE') {
      throw new ApiError(
        'METER_NOT_FOUND',
        meter ? `Meter ${meter.meterId} is ${meter.status}: it measures nothing new to price.` : `Meter ${price.usage.meterId} does not exist.`,
        { field: 'meter_id', meter_id: price.usage.meterId, ...(meter ? { status: meter.status } : {}) },
      );
    }
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
      meterId: price.usage?.meterId ?? null,
      usageModel: price.usage?.model,
      createdAt: now,
      updatedAt: now,
    },
    select: productPriceSelect,
  });
}
