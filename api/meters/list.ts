import { z } from 'zod';
import { listMeters as listMetersService } from '../../services/usage/meters';
import { stringCondition, valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { eventName, meterObject, meterStatus, serializeMeter } from './schemas';

export const listMetersRequest = z.strictObject({
  filters: z
    .strictObject({
      status: valueFilter(['EQ', 'IN'], meterStatus).optional(),
      event_name: valueFilter(['EQ', 'IN'], eventName).optional(),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

export const listMeters = authorizedProcedure
  .meta(operation('meters/list', { summary: 'List meters, newest first', description: 'Extension (docs/usage.md).' }))
  .input(listMetersRequest)
  .output(z.object({ items: z.array(meterObject), pagination: paginationResponse }))
  .query(({ ctx, input }) => {
    const filters = input.filters ?? {};
    const conditions = {
      ...(filters.status ? { status: stringCondition(filters.status) } : {}),
      ...(filters.event_name ? { eventName: stringCondition(filters.event_name) } : {}),
    };
    return paginate(
      input.pagination,
      requestHash('meters/list', { filters }),
      (beforeId, take) => listMetersService(ctx.db, ctx.principal.accountId, conditions, beforeId, take),
      serializeMeter,
    );
  });
