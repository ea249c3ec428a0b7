import type { Prisma } from '../../prisma/client';
import type { OutboxRow } from '../../prisma/outbox';
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

/** One statement per set of columns written (with or without events), declared the first time that set is: a handful exist. */
const statements = new Map<string, SqlStatement>();

function statementFor(fields: Array<keyof InvoiceColumnsChange>, withEvents: boolean): SqlStatement {
  const key = `${fields.join(',')}${withEvents ? '+events' : ''}`;
  let statement = statements.get(key);
  if (!statement) {
    const sets = fields.map((field, index) => `${COLUMNS[field]} = $${index + 2}${JSON_COLUMNS.has(field) ? '::jsonb' : ''}`);
    const update = `UPDATE invoices AS i SET ${sets.join(', ')} WHERE i.id = $1 RETURNING ${INVOICE_COLUMNS}`;
    // A data-modifying WITH runs whether or not the outer query reads it: the events commit with the update.
    const text = withEvents
      ? `WITH saved AS (${update}), events AS (
           INSERT INTO outbox_events (id, account_id, channel_id, event_type, occurred_at, data)
           SELECT * FROM jsonb_to_recordset($${fields.length + 2}::jsonb)
             AS e(id text, "accountId" text, "channelId" text, "eventType" text, "occurredAt" timestamptz, data jsonb))
         SELECT * FROM saved`
      : update;
    statement = sqlStatement(`invoices.update(${key})`, text);
    statements.set(key, statement);
  }
  return statement;
}

/**
 * The row `change` leaves, as updateInvoiceColumns returns it, built in memory: what an event
 * written in the same statement carries. JSON columns go through JSON as they do into jsonb.
 */
export function withInvoiceColumns(row: InvoiceRow, change: InvoiceColumnsChange): InvoiceRow {
  const changed: Record<string, unknown> = {};
  for (const field of Object.keys(COLUMNS) as Array<keyof InvoiceColumnsChange>) {
    const value = change[field];
    if (value === undefined) continue;
    changed[field] = JSON_COLUMNS.has(field) && value !== null ? JSON.parse(JSON.stringify(value)) : value;
  }
  return { ...row, ...changed };
}

/**
 * Writes columns of an invoice whose lines the change leaves alone: one `UPDATE … RETURNING` on
 * the caller's transaction connection, the lines carried over from `row`, and in the same
 * statement the `events` reporting it (recordEvent's rows; build them from withInvoiceColumns).
 * Through Prisma the same update cost the worker about 0.4 ms of CPU more (issue 13), and the
 * events were one statement more; test/invoices-lifecycle/read-row.test.ts holds what it
 * returns equal to Prisma's reading of the row.
 */
export async function updateInvoiceColumns(
  tx: Prisma.TransactionClient,
  row: InvoiceRow,
  change: InvoiceColumnsChange,
  events: readonly OutboxRow[] = [],
): Promise<InvoiceRow> {
  const fields = (Object.keys(COLUMNS) as Array<keyof InvoiceColumnsChange>).filter((field) => change[field] !== undefined);
  if (fields.length === 0) {
    if (events.length > 0) throw new Error(`Events for invoice ${row.id} report a change that writes nothing.`);
    return row;
  }
  const values = fields.map((field) => {
    const value = change[field];
    return JSON_COLUMNS.has(field) && value !== null ? JSON.stringify(value) : value;
  });
  const withEvents = events.length > 0;
  const [columns] = await writeRows<Omit<InvoiceRow, 'lineItems'>>(tx, statementFor(fields, withEvents), [
    row.id,
    ...values,
    ...(withEvents ? [JSON.stringify(events)] : []),
  ]);
  if (!columns) throw new Error(`Invoice ${row.id} has no row to update.`);
  return { ...columns, lineItems: row.lineItems };
}
