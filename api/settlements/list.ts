import { z } from 'zod';
import { startOfDay } from '../../domain/settlement-dates';
import { stringCondition, valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { prefixedId } from '../common/schemas';
import { currency } from '../customers/schemas';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { dateRangeFilter, serializeSettlement, settlementInclude, settlementObject } from './schemas';

/** An extension of the spec (docs/settlements.md, "settlements/list"), in the style of section 4.7. */
export const listSettlementsRequest = z.strictObject({
  filters: z
    .strictObject({
      settlement_date: dateRangeFilter.optional().meta({
        description: '`{from?, to?}` UTC dates, both inclusive, at least one; settlements whose `settlement_date` lies within.',
      }),
      legal_entity_id: valueFilter(['EQ', 'NEQ', 'IN'], prefixedId('legalEntity'))
        .optional()
        .meta({ description: 'With IN, an array or one comma-separated string.' }),
      currency: valueFilter(['EQ', 'NEQ', 'IN'], currency).optional().meta({ description: 'With IN, an array or one comma-separated string.' }),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

export const listSettlementsResponse = z.object({ items: z.array(settlementObject), pagination: paginationResponse });

export const listSettlements = authorizedProcedure
  .meta(
    operation('settlements/list', {
      summary: 'List settlements, newest first',
      description:
        'An extension of the spec: the account’s settlements (section 2.7 objects, with their files and short-lived `download_url`s as settlements/get gives them), filtered like monthly-statements/list (docs/settlements.md).',
      accountLevelOnly: true,
    }),
  )
  .input(listSettlementsRequest)
  .output(listSettlementsResponse)
  .query(({ ctx, input }) => {
    const filters = input.filters ?? {};
    const range = filters.settlement_date?.value;
    const where = {
      accountId: ctx.principal.accountId,
      ...(filters.legal_entity_id ? { legalEntityId: stringCondition(filters.legal_entity_id) } : {}),
      ...(filters.currency ? { currency: stringCondition(filters.currency) } : {}),
      ...(range
        ? { settlementDate: { ...(range.from ? { gte: startOfDay(range.from) } : {}), ...(range.to ? { lte: startOfDay(range.to) } : {}) } }
        : {}),
    };
    const now = ctx.now();
    return paginate(
      input.pagination,
      requestHash('settlements/list', filters),
      (beforeId, take) =>
        ctx.db.settlement.findMany({
          where: beforeId ? { ...where, id: { lt: beforeId } } : where,
          orderBy: { id: 'desc' },
          take,
          include: settlementInclude,
        }),
      (row) => serializeSettlement(row, now),
    );
  });
