import type { AntifraudAction, AntifraudField } from '../../domain/antifraud';
import type { Prisma } from '../../prisma/client';
import { assertAntifraudEnabled } from './guard';
import { insertList } from './repository';

/** antifraud-lists/create in the caller's transaction (422 INCOMPATIBLE_STATUS when antifraud is disabled). */
export async function createList(
  deps: { now: () => Date },
  tx: Prisma.TransactionClient,
  accountId: string,
  list: { name: string; field: AntifraudField; action: AntifraudAction },
) {
  await assertAntifraudEnabled(tx, accountId);
  return insertList(tx, { accountId, ...list, now: deps.now() });
}
