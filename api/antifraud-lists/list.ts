import { z } from 'zod';
import { valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { assertAntifraudEnabled } from '../../services/antifraud-lists/guard';
import { listSelect } from '../../services/antifraud-lists/repository';
import { antifraudField, antifraudListObject, serializeList } from './schemas';

/** Section 4.8. */
export const listListsRequest = z.strictObject({
  filters: z
    .strictObject({
      field: valueFilter(['EQ'], antifraudField).optional().meta({ description: 'Lists matching on this field.' }),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

export const listListsResponse = z.object({ items: z.array(antifraudListObject), pagination: paginationResponse });

export const listAntifraudLists = authorizedProcedure
  .meta(
    operation('antifraud-lists/list', {
      summary: 'List antifraud lists, newest first',
    }),
  )
  .input(listListsRequest)
  .output(listListsResponse)
  .query(async ({ ctx, input }) => {
    await assertAntifraudEnabled(ctx.db, ctx.principal.accountId);
    const filters = input.filters ?? {};
    const where = { accountId: ctx.principal.accountId, ...(filters.field ? { field: filters.field.value } : {}) };
    return paginate(
      input.pagination,
      requestHash('antifraud-lists/list', filters),
      (beforeId, take) =>
        ctx.db.antifraudList.findMany({
          where: beforeId ? { ...where, id: { lt: beforeId } } : where,
          orderBy: { id: 'desc' },
          take,
          select: listSelect,
        }),
      serializeList,
    );
  });
