import { normaliseFieldValue } from '../../domain/antifraud';
import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import { fieldValueProblem } from './field-value';
import { assertAntifraudEnabled } from './guard';
import { findLiveItem, insertItem, lockList } from './repository';

export interface NewItemRequest {
  listId: string;
  /** Trimmed; validated and normalised here for the list's field. */
  fieldValue: string;
  expiredAt?: Date;
  description?: string;
  /** The user's e-mail (section 2.5), when one is known. */
  createdBy?: string;
  /** The API key that made the call; none for a dashboard session. */
  createdByApiKeyId?: string;
}

/**
 * antifraud-lists/create-item in the caller's transaction, under the list's row lock: 422
 * ITEM_ALREADY_EXISTS when an unexpired item of the list holds the same normalised value at `now`.
 */
export async function createItem(deps: { now: () => Date }, tx: Prisma.TransactionClient, accountId: string, item: NewItemRequest) {
  const now = deps.now();
  await assertAntifraudEnabled(tx, accountId);
  const list = await lockList(tx, accountId, item.listId);
  if (!list) throw ApiError.notFound('Antifraud list', item.listId);
  const problem = fieldValueProblem(list.field, item.fieldValue);
  if (problem) throw ApiError.validation({ field_value: problem });

  const fieldValue = normaliseFieldValue(list.field, item.fieldValue);
  const existing = await findLiveItem(tx, list.id, fieldValue, now);
  if (existing) {
    throw new ApiError('ITEM_ALREADY_EXISTS', 'The list already holds this value.', { item_id: existing.id, field_value: fieldValue });
  }
  return insertItem(tx, {
    accountId,
    listId: list.id,
    fieldValue,
    expiredAt: item.expiredAt,
    description: item.description,
    createdBy: item.createdBy,
    createdByApiKeyId: item.createdByApiKeyId,
    now,
  });
}
