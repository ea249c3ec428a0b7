import type { BalanceTransactionType } from '../../domain/balance-transactions';
import { formatDateTime } from '../../domain/datetime';
import type { BalanceTransactionRow } from './append-transaction';

/** A ledger row as customer-balance-transactions/create and /list show it (docs/customer-balance.md). */
export type BalanceTransactionObject = {
  id: string;
  customer_id: string;
  currency: string;
  amount: number;
  type: BalanceTransactionType;
  description?: string;
  invoice_id?: string;
  credit_note_id?: string;
  ending_balance: number;
  created_at: string;
};

export function serializeBalanceTransaction(row: BalanceTransactionRow): BalanceTransactionObject {
  return {
    id: row.id,
    customer_id: row.customerId,
    currency: row.currency,
    amount: row.amount,
    type: row.type as BalanceTransactionType,
    ...(row.description === null ? {} : { description: row.description }),
    ...(row.invoiceId === null ? {} : { invoice_id: row.invoiceId }),
    ...(row.creditNoteId === null ? {} : { credit_note_id: row.creditNoteId }),
    ending_balance: row.endingBalance,
    created_at: formatDateTime(row.createdAt),
  };
}
