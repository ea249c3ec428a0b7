import { balanceAtFinalization, type BalanceSettlement } from '../../domain/balance-application';
import type { Prisma } from '../../prisma/client';
import { appendBalanceTransaction, readBalance } from './append-transaction';

type Transaction = Prisma.TransactionClient;

export interface InvoiceToSettle {
  id: string;
  accountId: string;
  customerId: string;
  currency: string;
  totalAmount: number;
}

/**
 * Locks the customer's balance in the invoice currency and decides what it does to the invoice
 * (balanceAtFinalization). Nothing is written: the lock, held until the caller commits, keeps the
 * decision true until recordBalanceSettlement writes it, so two invoices finalizing at once take
 * turns and never spend the same credit.
 */
export async function planBalanceSettlement(tx: Transaction, invoice: InvoiceToSettle): Promise<BalanceSettlement> {
  const balance = invoice.totalAmount < 0 ? 0 : await readBalance(tx, { customerId: invoice.customerId, currency: invoice.currency, lock: true });
  return balanceAtFinalization(invoice.totalAmount, balance);
}

/** Appends the ledger rows of a planned settlement: APPLIED_TO_INVOICE or CREDITED_FROM_INVOICE, naming the invoice. */
export async function recordBalanceSettlement(tx: Transaction, invoice: InvoiceToSettle, settlement: BalanceSettlement, now: Date): Promise<void> {
  const common = { accountId: invoice.accountId, customerId: invoice.customerId, currency: invoice.currency, invoiceId: invoice.id, now };
  if (settlement.balanceApplied !== 0) {
    await appendBalanceTransaction(tx, { ...common, amount: settlement.balanceApplied, type: 'APPLIED_TO_INVOICE', description: `Applied to invoice ${invoice.id}` });
  }
  if (settlement.balanceCredited !== 0) {
    await appendBalanceTransaction(tx, { ...common, amount: -settlement.balanceCredited, type: 'CREDITED_FROM_INVOICE', description: `Credited from invoice ${invoice.id}` });
  }
}

/**
 * A voided invoice owes nothing, so the balance it took goes back to the customer: the
 * reverse of its APPLIED_TO_INVOICE, under the same type and invoice.
 */
export async function returnAppliedBalance(tx: Transaction, invoice: InvoiceToSettle & { balanceApplied: number }, now: Date): Promise<void> {
  if (invoice.balanceApplied === 0) return;
  await appendBalanceTransaction(tx, {
    accountId: invoice.accountId,
    customerId: invoice.customerId,
    currency: invoice.currency,
    amount: -invoice.balanceApplied,
    type: 'APPLIED_TO_INVOICE',
    description: `Returned from voided invoice ${invoice.id}`,
    invoiceId: invoice.id,
    now,
  });
}
