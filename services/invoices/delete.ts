import { nextStatus } from '../../domain/invoice-status';
import type { Prisma } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import type { Scope } from '../scope';
import { serializeInvoice } from './invoice-object';
import { lockAndReadVisibleInvoice } from './repository';
import { updateInvoiceColumns } from './invoice-columns-update';

/** invoices/delete in the caller's transaction: a DRAFT is marked deleted, with InvoiceDeleted (section 6.2 payload). */
export async function deleteDraft(deps: { now: () => Date }, tx: Prisma.TransactionClient, scope: Scope, invoiceId: string): Promise<{ id: string; deleted: true }> {
  const { row, customer } = await lockAndReadVisibleInvoice(tx, scope, invoiceId);
  nextStatus('delete', row.status);
  const now = deps.now();
  const saved = await updateInvoiceColumns(tx, row, { deletedAt: now, updatedAt: now });
  const invoice = serializeInvoice(saved, { now, customer, deleted: true });
  await recordEvent(tx, { accountId: scope.accountId, channelId: saved.channelId, name: 'InvoiceDeleted', data: { invoice }, occurredAt: now });
  return { id: saved.id, deleted: true };
}
