import type { ResourceErrorCodes } from '../openapi/operation-types';

export const productPriceErrorCodes = {
  create: {
    PRODUCT_NOT_FOUND: '`product_id` is not a product of the account; `context.product_id`. docs/catalogue.md.',
  },
} satisfies ResourceErrorCodes<'product-prices'>;
