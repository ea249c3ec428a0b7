import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { dateTimeCondition, dateTimeRangeFilter, valueFilter } from '../common/filters';
import { prefixedId } from '../common/schemas';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { assertAntifraudEnabled } from '../../services/antifraud-lists/guard';
import { findList, itemSelect } from '../../services/antifraud-lists/repository';
import { antifraudId, antifraudListItemObject, serializeItem } from './schemas';

/** Section 4.9 gives the filter a string; stored e-mails are lowercase, so any spelling matches. */
const createdBy = z
  .string()
  .transform((value) => value.toLowerCase())
  .meta({ description: 'A user’s e-mail, in any case; a value no item holds matches nothing.' });

/** Section 4.9. */
export const listItemsRequest = z.strictObject({
  list_id: antifraudId.optional().meta({ description: 'Items of this list only; left out, items of every list.' }),
  filters: z
    .strictObject({
      field_value: valueFilter(['CONTAINS'], z.string().min(1).max(254))
        .optional()
        .meta({ description: 'Case-insensitive substring of the stored (normalised) value.' }),
      created_at: dateTimeRangeFilter.optional(),
      created_by: valueFilter(['EQ'], createdBy).optional().meta({ description: 'Items whose `created_by` is this e-mail.' }),
      created_by_api_key_id: valueFilter(['EQ'], prefixedId('apiKey'))
        .optional()
        .meta({ description: 'Extension (docs/antifraud.md): items added through this API key.' }),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

export const listItemsResponse = z.object({ items: z.array(antifraudListItemObject), pagination: paginationResponse });

export const listAntifraudListItems = authorizedProcedure
  .meta(
    operation('antifraud-lists/list-item', {
      summary: 'List antifraud list items, newest first',
      description: '404 when `list_id` names no list of the account.',
    }),
  )
  .input(listItemsRequest)
  .output(listItemsResponse)
  .query(async ({ ctx, input }) => {
    const accountId = ctx.principal.accountId;
    await assertAntifraudEnabled(ctx.db, accountId);
    if (input.list_id && !(await findList(ctx.db, accountId, input.list_id))) {
      throw ApiError.notFound('Antifraud list', input.list_id);
    }
    const filters = input.filters ?? {};
    const where = {
      accountId,
      ...(input.list_id ? { listId: input.list_id } : {}),
      ...(filters.field_value ? { fieldValue: { contains: filters.field_value.value, mode: 'insensitive' as const } } : {}),
      ...(filters.created_at ? { createdAt: dateTimeCondition(filters.created_at) } : {}),
      ...(filters.created_by ? { createdBy: filters.created_by.value } : {}),
      ...(filters.created_by_api_key_id ? { createdByApiKeyId: filters.created_by_api_key_id.value } : {}),
    };
    return paginate(
      input.pagination,
      requestHash('antifraud-lists/list-item', { list_id: input.list_id, filters }),
      (beforeId, take) =>
        ctx.db.antifraudListItem.findMany({
          where: beforeId ? { ...where, id: { lt: beforeId } } : where,
          orderBy: { id: 'desc' },
          take,
          select: itemSelect,
        }),
      serializeItem,
    );
  });
