import type { Database } from '../../prisma/client';
import { invoiceSelect, serializeInvoice, type InvoiceObject } from '../invoices/invoice-object';
import type { PortalActor } from './actor';

/** The session id a hosted invoice page's changes are audited under: it has no session. */
export const HOSTED_INVOICE_SESSION_ID = 'hosted';

export interface HostedInvoice {
  invoice: InvoiceObject;
  accountName: string;
  /** The invoice's customer, acting on this one invoice. */
  actor: PortalActor;
  channelId: string;
}

/**
 * The invoice a verified hosted invoice token names, with its account and customer; null for a
 * DRAFT or deleted one, as for an unknown id: no link is issued for a draft.
 */
export async function readHostedInvoice(db: Database, invoiceId: string, now: Date): Promise<HostedInvoice | null> {
  const row = await db.invoice.findFirst({ where: { id: invoiceId, deletedAt: null, status: { not: 'DRAFT' } }, select: invoiceSelect });
  if (!row) return null;
  const [account, customer] = await Promise.all([
    db.account.findUniqueOrThrow({ where: { id: row.accountId }, select: { name: true } }),
    db.customer.findUniqueOrThrow({ where: { id: row.customerId }, select: { email: true } }),
  ]);
  return {
    invoice: serializeInvoice(row, { now }),
    accountName: account.name,
    actor: { accountId: row.accountId, customerId: row.customerId, email: customer.email, sessionId: HOSTED_INVOICE_SESSION_ID },
    channelId: row.channelId,
  };
}
