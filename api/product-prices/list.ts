import { z } from 'zod';
import { dateTimeCondition, dateTimeRangeFilter, stringCondition, valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { currency } from '../customers/schemas';
import { requestHash } from '../idempotency/request-hash';
import { catalogueId } from '../products/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { billingType, productPriceObject, productPriceSelect, serializeProductPrice } from './schemas';

export const listProductPricesRequest = z.strictObject({
  filters: z
    .strictObject({
      product_id: valueFilter(['EQ', 'IN'], catalogueId).optional(),
      currency: valueFilter(['EQ', 'IN'], currency).optional(),
      billing_type: valueFilter(['EQ'], billingType).optional(),
      created_at: dateTimeRangeFilter.optional(),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

export const listProductPrices = authorizedProcedure
  .meta(operation('product-prices/list', { summary: 'List product prices, newest first' }))
  .input(listProductPricesRequest)
  .output(z.object({ items: z.array(productPriceObject), pagination: paginationResponse }))
  .query(({ ctx, input }) => {
    const filters = input.filters ?? {};
    const where = {
      accountId: ctx.principal.accountId,
      ...(filters.product_id ? { productId: stringCondition(filters.product_id) } : {}),
      ...(filters.currency ? { currency: stringCondition(filters.currency) } : {}),
      ...(filters.billing_type ? { billingType: stringCondition(filters.billing_type) } : {}),
      ...(filters.created_at ? { createdAt: dateTimeCondition(filters.created_at) } : {}),
    };
    return paginate(
      input.pagination,
      requestHash('product-prices/list', { filters }),
      (beforeId, take) =>
        ctx.db.productPrice.findMany({
          where: beforeId ? { ...where, id: { lt: beforeId } } : where,
          orderBy: { id: 'desc' },
          take,
          select: productPriceSelect,
        }),
      serializeProductPrice,
    );
  });
