import type { BalanceTransactionType } from '../../domain/balance-transactions';
import { ApiError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { Prisma } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';

type Transaction = Prisma.TransactionClient;

export type BalanceTransactionRow = Prisma.CustomerBalanceTransactionGetPayload<object>;

export interface BalanceTransactionInput {
  accountId: string;
  customerId: string;
  currency: string;
  /** Minor units, not zero: negative credits the customer, positive debits them. */
  amount: number;
  type: BalanceTransactionType;
  description?: string | null;
  invoiceId?: string | null;
  creditNoteId?: string | null;
  now: Date;
}

/**
 * Appends one transaction to the customer's ledger in `currency`, in the caller's transaction.
 * One statement creates or updates the (customer, currency) balance row and so holds its row
 * lock until the caller commits: appends to one ledger serialise, each sees the balance the
 * previous one left, and its endingBalance chains onto it. A balance that would leave the
 * integer range is refused (422 BALANCE_OUT_OF_RANGE), the row left as it was.
 */
export async function appendBalanceTransaction(tx: Transaction, input: BalanceTransactionInput): Promise<BalanceTransactionRow> {
  if (!Number.isSafeInteger(input.amount) || input.amount === 0) {
    throw new Error(`A balance transaction needs a non-zero integer amount, not ${input.amount}.`);
  }
  const [next] = await tx.$queryRaw<{ balance: number; lastSequence: number }[]>`
    INSERT INTO customer_balances AS b (customer_id, currency, account_id, balance, last_sequence, updated_at)
    VALUES (${input.customerId}, ${input.currency}, ${input.accountId}, ${input.amount}, 1, ${input.now})
    ON CONFLICT (customer_id, currency) DO UPDATE
      SET balance = b.balance + EXCLUDED.balance, last_sequence = b.last_sequence + 1, updated_at = EXCLUDED.updated_at
      WHERE b.balance::bigint + EXCLUDED.balance BETWEEN -2147483648 AND 2147483647
    RETURNING b.balance, b.last_sequence AS "lastSequence"`;
  if (!next) {
    throw new ApiError('BALANCE_OUT_OF_RANGE', `The ${input.currency} balance of customer ${input.customerId} cannot move by ${input.amount}: it would leave the integer range.`, {
      customer_id: input.customerId,
      currency: input.currency,
      amount: input.amount,
    });
  }
  return tx.customerBalanceTransaction.create({
    data: {
      id: newId('customerBalanceTransaction', input.now.getTime()),
      accountId: input.accountId,
      customerId: input.customerId,
      currency: input.currency,
      amount: input.amount,
      type: input.type,
      description: input.description ?? null,
      invoiceId: input.invoiceId ?? null,
      creditNoteId: input.creditNoteId ?? null,
      sequence: next.lastSequence,
      endingBalance: next.balance,
      createdAt: input.now,
    },
  });
}

const balance = sqlStatement('customer_balance.read', 'SELECT balance FROM customer_balances WHERE customer_id = $1 AND currency = $2');
const lockedBalance = sqlStatement('customer_balance.lock', 'SELECT balance FROM customer_balances WHERE customer_id = $1 AND currency = $2 FOR UPDATE');

/**
 * The customer's balance in `currency` (0 without a ledger). With `lock`, the balance row is
 * held until the caller commits, so what the caller decides from it (how much credit an invoice
 * may spend) still holds when it appends: a concurrent append waits.
 */
export async function readBalance(
  tx: Transaction,
  input: { customerId: string; currency: string; lock?: boolean },
): Promise<number> {
  const rows = await readRows<{ balance: number }>(tx, input.lock ? lockedBalance : balance, [input.customerId, input.currency]);
  return rows[0]?.balance ?? 0;
}

/** Every balance of the customer, by currency, currencies in alphabetical order. */
export async function readBalances(db: Transaction, customerId: string): Promise<Record<string, number>> {
  const rows = await db.customerBalance.findMany({ where: { customerId }, select: { currency: true, balance: true }, orderBy: { currency: 'asc' } });
  return Object.fromEntries(rows.map((row) => [row.currency, row.balance]));
}
