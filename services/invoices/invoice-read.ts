import { Prisma } from '../../generated/prisma/client';
import { ApiError } from '../../domain/errors';
import { readRows, sqlStatement } from '../../prisma/statements';
import type { Scope } from '../scope';
import { serializeInvoice, type InvoiceCustomerRow, type InvoiceObject, type InvoiceRow } from './invoice-object';

type Db = Prisma.TransactionClient;

/** The line items as Prisma returns them: JSON gives dates as text and the rate as text (kept exact). */
type JsonLine = Omit<InvoiceRow['lineItems'][number], 'createdAt' | 'taxRate'> & { createdAt: string; taxRate: string | null };

type ReadRow = Omit<InvoiceRow, 'lineItems'> & { lineItems: JsonLine[]; liveCustomer: InvoiceCustomerRow | null };

/** The invoice's own columns of `i`, named as `invoiceColumnsSelect` names them. */
export const INVOICE_COLUMNS = `i.id, i.account_id AS "accountId", i.channel_id AS "channelId", i.customer_id AS "customerId", i.status, i.currency,
         i.total_amount AS "totalAmount", i.amount_due AS "amountDue", i.amount_paid AS "amountPaid", i.amount_details AS "amountDetails",
         i.discounts, i.customer_snapshot AS "customerSnapshot", i.subscription_id AS "subscriptionId", i.billing_reason AS "billingReason",
         i.collection_method AS "collectionMethod", i.payment_instrument_id AS "paymentInstrumentId",
         i.payment_in_progress_id AS "paymentInProgressId", i.due_at AS "dueAt", i.notes, i.merchant_reference AS "merchantReference",
         i.metadata, i.finalized_at AS "finalizedAt", i.paid_at AS "paidAt", i.voided_at AS "voidedAt", i.deleted_at AS "deletedAt",
         i.created_at AS "createdAt", i.updated_at AS "updatedAt"`;

/**
 * An invoice in one statement: the invoice's columns (named as `invoiceColumnsSelect` names
 * them), its lines in order, and for a draft the live customer (`customerSnapshotSelect`). Prisma sends three
 * (issue 13: invoices/get was three round trips, each its own transaction);
 * test/invoices-lifecycle/read-row.test.ts holds this reading equal to Prisma's.
 */
const readSql = (where: string, extraColumns = '') => `
  SELECT ${INVOICE_COLUMNS}${extraColumns},
         coalesce((SELECT json_agg(json_build_object(
                     'id', l.id, 'invoiceId', l.invoice_id, 'position', l.position, 'productPriceId', l.product_price_id,
                     'description', l.description, 'amount', l.amount, 'currency', l.currency, 'quantity', l.quantity,
                     'taxCategoryId', l.tax_category_id, 'taxMode', l.tax_mode, 'taxRate', l.tax_rate::text, 'subtotal', l.subtotal,
                     'discount', l.discount, 'taxable', l.taxable, 'tax', l.tax, 'usage', l.usage, 'createdAt', l.created_at) ORDER BY l.position)
                   FROM invoice_line_items l WHERE l.invoice_id = i.id), '[]'::json) AS "lineItems",
         CASE WHEN i.customer_snapshot IS NULL THEN (
           SELECT json_build_object('id', c.id, 'channelId', c.channel_id, 'firstName', c.first_name, 'lastName', c.last_name,
                                    'email', c.email, 'phone', c.phone, 'address', c.address, 'tax', c.tax, 'configuration', c.configuration)
           FROM customers c WHERE c.id = i.customer_id) END AS "liveCustomer"
  FROM invoices i WHERE ${where}`;

const visibleInvoiceSql = sqlStatement('invoices.find_visible', readSql('i.id = $1 AND i.account_id = $2 AND i.deleted_at IS NULL'));
const chargeableInvoiceSql = sqlStatement(
  'invoices.find_chargeable',
  readSql('i.id = $1', ', i.collection_attempts_settled AS "collectionAttemptsSettled"'),
);

/** The invoice the caller may see, with what serializing it needs; 404 otherwise. */
export async function readVisibleInvoice(db: Db, scope: Scope, id: string): Promise<{ row: InvoiceRow; customer: InvoiceCustomerRow | undefined }> {
  const [read] = await readRows<ReadRow>(db, visibleInvoiceSql, [id, scope.accountId]);
  if (!read || (scope.channels !== null && !scope.channels.includes(read.channelId))) throw ApiError.notFound('Invoice', id);
  const { liveCustomer, ...rest } = read;
  return { row: rowOf(rest), customer: liveCustomer ?? undefined };
}

/**
 * An invoice by id alone, with the collection attempts it has settled: what a charge's claim and
 * settlement decide on (services/payments/settle.ts reads it after taking the row lock).
 */
export async function readChargeableInvoice(db: Db, id: string): Promise<(InvoiceRow & { collectionAttemptsSettled: number }) | null> {
  const [read] = await readRows<ReadRow & { collectionAttemptsSettled: number }>(db, chargeableInvoiceSql, [id]);
  if (!read) return null;
  const { liveCustomer: _customer, ...rest } = read;
  return rowOf(rest);
}

function rowOf<T extends Omit<ReadRow, 'liveCustomer'>>(read: T): Omit<T, 'lineItems'> & Pick<InvoiceRow, 'lineItems'> {
  return {
    ...read,
    lineItems: read.lineItems.map((line) => ({
      ...line,
      taxRate: line.taxRate === null ? null : new Prisma.Decimal(line.taxRate),
      createdAt: new Date(line.createdAt),
    })),
  };
}

/** invoices/get's answer: the section 2.3 object of the invoice the caller may see. */
export async function readVisibleInvoiceObject(db: Db, scope: Scope, id: string, now: Date): Promise<InvoiceObject> {
  const { row, customer } = await readVisibleInvoice(db, scope, id);
  return serializeInvoice(row, { now, customer });
}
