import type { ResourceErrorCodes } from '../openapi/operation-types';

export const productPriceErrorCodes = {
  create: {
    PRODUCT_NOT_FOUND: '`product_id` is not a product of the account; `context.product_id`. docs/catalogue.md.',
    METER_NOT_FOUND: '`meter_id` is not an ACTIVE meter of the account; `context.meter_id`, and `context.status` when it is archived. docs/usage.md.',
  },
} satisfies ResourceErrorCodes<'product-prices'>;
