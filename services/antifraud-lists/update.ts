import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import { assertAntifraudEnabled } from './guard';
import { updateList as saveList, type ListChanges } from './repository';

/** antifraud-lists/update in the caller's transaction: `name` and `action` only; 404 when the account has no such list. */
export async function updateList(deps: { now: () => Date }, tx: Prisma.TransactionClient, accountId: string, id: string, changes: ListChanges) {
  await assertAntifraudEnabled(tx, accountId);
  const row = await saveList(tx, accountId, id, changes, deps.now());
  if (!row) throw ApiError.notFound('Antifraud list', id);
  return row;
}
