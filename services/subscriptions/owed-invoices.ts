import { INVOICE_TRANSITIONS } from '../../domain/invoice-status';
import type { Database } from '../../prisma/client';

/** How many of the subscription's invoices are still owed (could still be paid). */
export function owedInvoiceCount(deps: { db: Database }, subscriptionId: string): Promise<number> {
  return deps.db.invoice.count({ where: { subscriptionId, deletedAt: null, status: { in: [...INVOICE_TRANSITIONS.pay.from] } } });
}
