import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { catalogueId } from '../products/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { productPriceObject, productPriceSelect, serializeProductPrice } from './schemas';

export const getProductPrice = authorizedProcedure
  .meta(operation('product-prices/get', { summary: 'Get a product price' }))
  .input(z.strictObject({ id: catalogueId }))
  .output(productPriceObject)
  .query(async ({ ctx, input }) => {
    const row = await ctx.db.productPrice.findFirst({
      where: { id: input.id, accountId: ctx.principal.accountId },
      select: productPriceSelect,
    });
    if (!row) throw ApiError.notFound('Product price', input.id);
    return serializeProductPrice(row);
  });
