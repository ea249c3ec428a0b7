import type { Prisma } from '../../prisma/client';
import { visibleCustomer } from '../customers/rules';
import type { Scope } from '../scope';
import { appendBalanceTransaction } from './append-transaction';
import { serializeBalanceTransaction, type BalanceTransactionObject } from './transaction-object';

export interface AdjustmentRequest {
  customer_id: string;
  currency: string;
  amount: number;
  description: string;
}

/**
 * customer-balance-transactions/create: a merchant ADJUSTMENT of a visible customer's balance,
 * in the caller's transaction. Negative gives the customer credit, positive records a debit.
 */
export async function adjustCustomerBalance(
  deps: { now: () => Date },
  tx: Prisma.TransactionClient,
  scope: Scope,
  request: AdjustmentRequest,
): Promise<BalanceTransactionObject> {
  const customer = await visibleCustomer(tx, scope, request.customer_id);
  const row = await appendBalanceTransaction(tx, {
    accountId: scope.accountId,
    customerId: customer.id,
    currency: request.currency,
    amount: request.amount,
    type: 'ADJUSTMENT',
    description: request.description,
    now: deps.now(),
  });
  return serializeBalanceTransaction(row);
}
