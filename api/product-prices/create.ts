import { z } from 'zod';
import { createProductPrice as createProductPriceService } from '../../services/catalogue/product-prices';
import { prefixedId } from '../common/schemas';
import { currency } from '../customers/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { catalogueId } from '../products/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { billingPeriodConfig, billingType, MAX_PRICE_AMOUNT, productPriceObject, serializeProductPrice } from './schemas';

export const createProductPriceRequest = z
  .strictObject({
    product_id: catalogueId,
    currency,
    amount: z.number().int().min(0).max(MAX_PRICE_AMOUNT).meta({ description: 'Minor units per unit.' }),
    billing_type: billingType,
    billing_period_config: billingPeriodConfig.optional().meta({ description: 'Required for RECURRING, refused for ONE_TIME.' }),
    tax_category_id: prefixedId('taxCategory').optional(),
  })
  .superRefine((price, ctx) => {
    if (price.billing_type === 'RECURRING' && !price.billing_period_config) {
      ctx.addIssue({ code: 'custom', path: ['billing_period_config'], message: 'Required for a RECURRING price.', params: { type: 'REQUIRED' } });
    }
    if (price.billing_type === 'ONE_TIME' && price.billing_period_config) {
      ctx.addIssue({ code: 'custom', path: ['billing_period_config'], message: 'A ONE_TIME price has no billing period.', params: { type: 'INVALID' } });
    }
  })
  .meta({
    oneOf: [
      { properties: { billing_type: { const: 'RECURRING' } }, required: ['billing_period_config'] },
      { properties: { billing_type: { const: 'ONE_TIME' } }, not: { required: ['billing_period_config'] } },
    ],
  });

export const createProductPrice = authorizedProcedure
  .meta(
    operation('product-prices/create', {
      summary: 'Create a price of a product',
      description: 'Prices are immutable: create a new one to change an amount.',
    }),
  )
  .input(createProductPriceRequest)
  .output(productPriceObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'product-prices/create', input, (ctx) =>
      ctx.transaction(async (tx) =>
        serializeProductPrice(
          await createProductPriceService(ctx, tx, ctx.principal.accountId, {
            productId: input.product_id,
            currency: input.currency,
            amount: input.amount,
            billingType: input.billing_type,
            billingPeriod: input.billing_period_config,
            taxCategoryId: input.tax_category_id,
          }),
        ),
      ),
    ),
  );
