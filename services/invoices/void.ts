import type { Client } from '@temporalio/client';
import { ApiError } from '../../domain/errors';
import { nextStatus } from '../../domain/invoice-status';
import type { Prisma } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import { signalSubscriptionInvoiceSettled } from '../subscriptions/workflow-client';
import type { Scope } from '../scope';
import { signalInvoiceStatusChanged } from '../workflows/invoice-collection';
import { returnAppliedBalance } from '../customer-balance/finalization';
import { invoiceAmountDetails, serializeInvoice, type InvoiceObject } from './invoice-object';
import { lockVisibleInvoice } from './repository';
import { updateInvoiceColumns } from './invoice-columns-update';

/**
 * invoices/void (section 4.4) in the caller's transaction: OPEN, DUNNING or UNPAID → VOIDED with
 * amount_due 0 and InvoiceVoided; the customer balance it took goes back to the customer. Refused (INCOMPATIBLE_STATUS) while a charge is under way.
 */
export async function voidInvoice(deps: { now: () => Date }, tx: Prisma.TransactionClient, scope: Scope, invoiceId: string): Promise<InvoiceObject> {
  const row = await lockVisibleInvoice(tx, scope, invoiceId);
  const status = nextStatus('void', row.status);
  if (row.paymentInProgressId) {
    // A charge may be taking the money right now: voiding under it would bill a void invoice.
    throw new ApiError('INCOMPATIBLE_STATUS', `A payment of invoice ${row.id} is under way; void it once that payment has finished.`, {
      status: row.status,
      payment_in_progress: true,
    });
  }
  const now = deps.now();
  const saved = await updateInvoiceColumns(tx, row, { status, voidedAt: now, amountDue: 0, updatedAt: now });
  await returnAppliedBalance(tx, { ...row, balanceApplied: invoiceAmountDetails(row.amountDetails).balance_applied }, now);
  const invoice = serializeInvoice(saved, { now });
  await recordEvent(tx, { accountId: scope.accountId, channelId: saved.channelId, name: 'InvoiceVoided', data: { invoice }, occurredAt: now });
  return invoice;
}

/**
 * After the commit, so the workflows read VOIDED: a running collection stops and the
 * subscription the invoice bills hears it was settled. A replayed request signals again, harmlessly.
 */
export async function announceVoided(deps: { temporal: Client }, invoice: InvoiceObject): Promise<void> {
  await signalInvoiceStatusChanged(deps.temporal, invoice.id);
  if (invoice.subscription_id) await signalSubscriptionInvoiceSettled(deps.temporal, invoice.subscription_id, invoice.id);
}
