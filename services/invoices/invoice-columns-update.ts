import type { Prisma } from '../../prisma/client';
import { sqlStatement, writeRows, type SqlStatement } from '../../prisma/statements';
import type { InvoiceRow } from './invoice-object';
import { INVOICE_COLUMNS } from './invoice-read';

/** The columns a status change, a payment, a credit note or a deletion writes; lines are never touched here. */
export interface InvoiceColumnsChange {
  status?: string;
  customerSnapshot?: object | null;
  amountDue?: number;
  amountPaid?: number;
  amountDetails?: object;
  paymentInstrumentId?: string | null;
  paymentInProgressId?: string | null;
  collectionAttemptsSettled?: number;
  finalizedAt?: Date;
  paidAt?: Date;
  voidedAt?: Date;
  deletedAt?: Date;
  updatedAt?: Date;
}

const COLUMNS: Record<keyof InvoiceColumnsChange, string> = {
  status: 'status',
  customerSnapshot: 'customer_snapshot',
  amountDue: 'amount_due',
  amountPaid: 'amount_paid',
  amountDetails: 'amount_details',
  paymentInstrumentId: 'payment_instrument_id',
  paymentInProgressId: 'payment_in_progress_id',
  collectionAttemptsSettled: 'collection_attempts_settled',
  finalizedAt: 'finalized_at',
  paidAt: 'paid_at',
  voidedAt: 'voided_at',
  deletedAt: 'deleted_at',
  updatedAt: 'updated_at',
};

const JSON_COLUMNS = new Set<keyof InvoiceColumnsChange>(['customerSnapshot', 'amountDetails']);

/** One statement per set of columns written, declared the first time that set is: a handful exist. */
const statements = new Map<string, SqlStatement>();

function statementFor(fields: Array<keyof InvoiceColumnsChange>): SqlStatement {
  const key = fields.join(',');
  let statement = statements.get(key);
  if (!statement) {
    const sets = fields.map((field, index) => `${COLUMNS[field]} = $${index + 2}${JSON_COLUMNS.has(field) ? '::jsonb' : ''}`);
    statement = sqlStatement(`invoices.update(${key})`, `UPDATE invoices AS i SET ${sets.join(', ')} WHERE i.id = $1 RETURNING ${INVOICE_COLUMNS}`);
    statements.set(key, statement);
  }
  return statement;
}

/**
 * Writes columns of an invoice whose lines the change leaves alone: one `UPDATE … RETURNING` on
 * the caller's transaction connection, the lines carried over from `row`. Through Prisma the same
 * update cost the worker about 0.4 ms of CPU more (issue 13); test/invoices-lifecycle/read-row.test.ts
 * holds what it returns equal to Prisma's reading of the row.
 */
export async function updateInvoiceColumns(tx: Prisma.TransactionClient, row: InvoiceRow, change: InvoiceColumnsChange): Promise<InvoiceRow> {
  const fields = (Object.keys(COLUMNS) as Array<keyof InvoiceColumnsChange>).filter((field) => change[field] !== undefined);
  if (fields.length === 0) return row;
  const values = fields.map((field) => {
    const value = change[field];
    return JSON_COLUMNS.has(field) && value !== null ? JSON.stringify(value) : value;
  });
  const [columns] = await writeRows<Omit<InvoiceRow, 'lineItems'>>(tx, statementFor(fields), [row.id, ...values]);
  if (!columns) throw new Error(`Invoice ${row.id} has no row to update.`);
  return { ...columns, lineItems: row.lineItems };
}
