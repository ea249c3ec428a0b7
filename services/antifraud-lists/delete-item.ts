import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import { assertAntifraudEnabled } from './guard';
import { deleteItem as removeItem } from './repository';

/** antifraud-lists/delete-item in the caller's transaction: the item deleted for good, returned as it was. */
export async function deleteItem(tx: Prisma.TransactionClient, accountId: string, id: string) {
  await assertAntifraudEnabled(tx, accountId);
  const row = await removeItem(tx, accountId, id);
  if (!row) throw ApiError.notFound('Antifraud list item', id);
  return row;
}
