import { z } from 'zod';
import { createProductPrice as createProductPriceService } from '../../services/catalogue/product-prices';
import { prefixedId } from '../common/schemas';
import { currency } from '../customers/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { catalogueId } from '../products/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { billingPeriodConfig, billingType, MAX_PRICE_AMOUNT, productPriceObject, serializeProductPrice } from './schemas';
import { usageModelRequest } from './usage-model';

const forbidsUsage = { not: { anyOf: [{ required: ['meter_id'] }, { required: ['usage_model'] }] } };

export const createProductPriceRequest = z
  .strictObject({
    product_id: catalogueId,
    currency,
    amount: z
      .number()
      .int()
      .min(0)
      .max(MAX_PRICE_AMOUNT)
      .optional()
      .meta({ description: 'Minor units per unit. Required for RECURRING and ONE_TIME; for USAGE 0 or left out (its usage_model prices it).' }),
    billing_type: billingType,
    billing_period_config: billingPeriodConfig.optional().meta({ description: 'Required for RECURRING and USAGE, refused for ONE_TIME.' }),
    tax_category_id: prefixedId('taxCategory').optional(),
    meter_id: prefixedId('meter').optional().meta({ description: 'Extension, USAGE only (required): an ACTIVE meter of the account, whose quantity per period the price bills.' }),
    usage_model: usageModelRequest.optional().meta({ description: 'Extension, USAGE only (required).' }),
  })
  .superRefine((price, ctx) => {
    const issue = (field: string, message: string, type: 'REQUIRED' | 'INVALID') => ctx.addIssue({ code: 'custom', path: [field], message, params: { type } });
    const usage = price.billing_type === 'USAGE';
    if (price.billing_type !== 'ONE_TIME' && !price.billing_period_config) issue('billing_period_config', `Required for a ${price.billing_type} price.`, 'REQUIRED');
    if (price.billing_type === 'ONE_TIME' && price.billing_period_config) issue('billing_period_config', 'A ONE_TIME price has no billing period.', 'INVALID');
    if (!usage && price.amount === undefined) issue('amount', `Required for a ${price.billing_type} price.`, 'REQUIRED');
    if (usage && price.amount !== undefined && price.amount !== 0) issue('amount', 'A USAGE price is priced by its usage_model: amount is 0 or left out.', 'INVALID');
    for (const field of ['meter_id', 'usage_model'] as const) {
      if (usage && price[field] === undefined) issue(field, 'Required for a USAGE price.', 'REQUIRED');
      if (!usage && price[field] !== undefined) issue(field, `Only a USAGE price has a ${field}.`, 'INVALID');
    }
  })
  .meta({
    oneOf: [
      { properties: { billing_type: { const: 'RECURRING' } }, required: ['amount', 'billing_period_config'], ...forbidsUsage },
      { properties: { billing_type: { const: 'ONE_TIME' } }, required: ['amount'], not: { anyOf: [{ required: ['billing_period_config'] }, ...forbidsUsage.not.anyOf] } },
      { properties: { billing_type: { const: 'USAGE' }, amount: { const: 0 } }, required: ['billing_period_config', 'meter_id', 'usage_model'] },
    ],
  });

export const createProductPrice = authorizedProcedure
  .meta(
    operation('product-prices/create', {
      summary: 'Create a price of a product',
      description: 'Prices are immutable: create a new one to change an amount. A USAGE price (extension, docs/usage.md) bills what a meter measured each period.',
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
            amount: input.amount ?? 0,
            billingType: input.billing_type,
            billingPeriod: input.billing_period_config,
            taxCategoryId: input.tax_category_id,
            usage: input.meter_id && input.usage_model ? { meterId: input.meter_id, model: input.usage_model } : undefined,
          }),
        ),
      ),
    ),
  );
