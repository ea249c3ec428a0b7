import { z } from 'zod';
import { hasPrefix, ID_PREFIXES } from '../../domain/ids';
import { ApiError } from '../../domain/errors';
import { dateTimeCondition, dateTimeRangeFilter, valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { assertAntifraudEnabled } from '../../services/antifraud-lists/guard';
import { findList, itemSelect } from '../../services/antifraud-lists/repository';
import { antifraudId, antifraudListItemObject, serializeItem } from './schemas';

const email = z.email();

const createdBy = z
  .string()
  .max(254)
  .refine((value) => email.safeParse(value).success || hasPrefix('apiKey', value), {
    message: 'Expected an e-mail address or an API key id `akey_…`.',
    params: { type: 'FORMAT' },
  })
  .meta({ anyOf: [{ pattern: z.regexes.email.source }, { pattern: `^${ID_PREFIXES.apiKey}[\\s\\S]+$` }] })
  .transform((value) => value.toLowerCase());

/** Section 4.9. */
export const listItemsRequest = z.strictObject({
  list_id: antifraudId.optional().meta({ description: 'Items of this list only; left out, items of every list.' }),
  filters: z
    .strictObject({
      field_value: valueFilter(['CONTAINS'], z.string().min(1).max(254))
        .optional()
        .meta({ description: 'Case-insensitive substring of the stored (normalised) value.' }),
      created_at: dateTimeRangeFilter.optional(),
      created_by: valueFilter(['EQ'], createdBy).optional().meta({
        description: 'Items created by this user e-mail or, when none was given, by this API key (`akey_…`).',
      }),
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
