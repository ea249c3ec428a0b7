import { z } from 'zod';
import { dateTimeCondition, dateTimeRangeFilter, stringCondition, valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { productObject, productSelect, serializeProduct } from './schemas';

export const listProductsRequest = z.strictObject({
  filters: z
    .strictObject({
      name: valueFilter(['EQ', 'CONTAINS'], z.string().min(1).max(200)).optional(),
      created_at: dateTimeRangeFilter.optional(),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

export const listProducts = authorizedProcedure
  .meta(operation('products/list', { summary: 'List products, newest first' }))
  .input(listProductsRequest)
  .output(z.object({ items: z.array(productObject), pagination: paginationResponse }))
  .query(({ ctx, input }) => {
    const filters = input.filters ?? {};
    const where = {
      accountId: ctx.principal.accountId,
      ...(filters.name ? { name: stringCondition(filters.name) } : {}),
      ...(filters.created_at ? { createdAt: dateTimeCondition(filters.created_at) } : {}),
    };
    return paginate(
      input.pagination,
      requestHash('products/list', { filters }),
      (beforeId, take) =>
        ctx.db.product.findMany({ where: beforeId ? { ...where, id: { lt: beforeId } } : where, orderBy: { id: 'desc' }, take, select: productSelect }),
      serializeProduct,
    );
  });
