import type { Prisma } from '../../prisma/client';
import { visibleInvoice } from '../invoices/repository';
import type { Scope } from '../scope';
import type { RefundObject } from './payment-objects';
import { refundObjectOf } from './refunds';

/**
 * One page of a visible invoice's refunds (invoices/refund and the refund parts of its credit
 * notes and proration credits), newest first: `take` refunds older than `beforeId`. Refund ids
 * grow with time, so their order is the order they were made. Unknown or outside the scope: 404,
 * as invoices/get.
 */
export async function listInvoiceRefunds(
  db: Prisma.TransactionClient,
  scope: Scope,
  query: { invoiceId: string; beforeId?: string; take: number },
): Promise<RefundObject[]> {
  const invoice = await visibleInvoice(db, scope, query.invoiceId);
  const rows = await db.refund.findMany({
    where: { accountId: scope.accountId, invoiceId: invoice.id, ...(query.beforeId ? { id: { lt: query.beforeId } } : {}) },
    orderBy: { id: 'desc' },
    take: query.take,
  });
  return rows.map((row) => refundObjectOf(row, invoice.currency));
}
