import type { Prisma } from '../../prisma/client';
import { visibleCustomer } from '../customers/rules';
import type { Scope } from '../scope';
import type { BalanceTransactionRow } from './append-transaction';

export interface TransactionFilters {
  currency?: Prisma.StringFilter;
  type?: Prisma.StringFilter;
  createdAt?: { gte?: Date; lt?: Date };
}

/**
 * One page of a visible customer's ledger, newest first (ids are monotonic, so id order is
 * creation order): `take` rows below `beforeId`.
 */
export async function listBalanceTransactions(
  db: Prisma.TransactionClient,
  scope: Scope,
  query: { customerId: string; filters: TransactionFilters; beforeId?: string; take: number },
): Promise<BalanceTransactionRow[]> {
  const customer = await visibleCustomer(db, scope, query.customerId);
  return db.customerBalanceTransaction.findMany({
    where: {
      customerId: customer.id,
      ...(query.filters.currency ? { currency: query.filters.currency } : {}),
      ...(query.filters.type ? { type: query.filters.type } : {}),
      ...(query.filters.createdAt ? { createdAt: query.filters.createdAt } : {}),
      ...(query.beforeId ? { id: { lt: query.beforeId } } : {}),
    },
    orderBy: { id: 'desc' },
    take: query.take,
  });
}
