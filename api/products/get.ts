import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { authorizedProcedure, operation } from '../trpc';
import { catalogueId, productObject, productSelect, serializeProduct } from './schemas';

export const getProduct = authorizedProcedure
  .meta(operation('products/get', { summary: 'Get a product' }))
  .input(z.strictObject({ id: catalogueId }))
  .output(productObject)
  .query(async ({ ctx, input }) => {
    const row = await ctx.db.product.findFirst({ where: { id: input.id, accountId: ctx.principal.accountId }, select: productSelect });
    if (!row) throw ApiError.notFound('Product', input.id);
    return serializeProduct(row);
  });
