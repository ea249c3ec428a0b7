import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import { appendBalanceTransaction, readBalance } from '../customer-balance/append-transaction';
import { serializeInvoice } from '../invoices/invoice-object';
import { lockVisibleInvoice } from '../invoices/repository';
import { updateInvoiceColumns } from '../invoices/invoice-columns-update';
import type { Scope } from '../scope';
import { creditNoteSelect, serializeCreditNote, type CreditNoteObject } from './credit-note-object';
import { visibleCreditNote } from './repository';

type Db = Prisma.TransactionClient;

function notVoidable(id: string, reason: string, message: string, context: Record<string, unknown> = {}): ApiError {
  return new ApiError('CREDIT_NOTE_NOT_VOIDABLE', `Credit note ${id} cannot be voided: ${message}`, { reason, ...context });
}

/**
 * credit-notes/void (docs/credit-notes.md, "Voiding") in the caller's transaction: undoes the
 * note's money movement and marks it VOIDED (its number stays taken), with CreditNoteVoided.
 * Only while every part can be undone: never a refund (the money has left); a balance credit
 * only while the customer's balance still holds it; a pre-payment part only while the invoice
 * is still owed (OPEN, DUNNING, UNPAID) and no charge of it is under way: amount_due rises back.
 */
export async function voidCreditNote(deps: { now: () => Date }, tx: Db, scope: Scope, id: string): Promise<CreditNoteObject> {
  const found = await visibleCreditNote(tx, scope, id);
  const invoice = await lockVisibleInvoice(tx, { ...scope, channels: null }, found.invoiceId);
  // Re-read under the invoice's lock: every change to a note happens under it.
  const note = await tx.creditNote.findUniqueOrThrow({ where: { id }, select: creditNoteSelect });
  if (note.status !== 'ISSUED') {
    throw new ApiError('INCOMPATIBLE_STATUS', `Credit note ${id} is ${note.status}; only an ISSUED one can be voided.`, {
      status: note.status,
      allowed_statuses: ['ISSUED'],
    });
  }
  if (note.origin !== 'API') {
    // It documents money the platform gave back on its own (a proration credit), which stands.
    throw notVoidable(id, 'AUTOMATIC', `it documents a ${note.origin} credit the platform made, not a credit note issued through the API.`, { origin: note.origin });
  }
  if (note.refundAmount > 0) {
    throw notVoidable(id, 'REFUNDED', `${note.refundAmount} of it was refunded to the customer's payment instrument, which cannot be taken back.`, {
      refund_id: note.refundId,
    });
  }
  if (note.prePaymentAmount > 0 && (!['OPEN', 'DUNNING', 'UNPAID'].includes(invoice.status) || invoice.paymentInProgressId)) {
    throw notVoidable(id, 'INVOICE_SETTLED', `it took ${note.prePaymentAmount} off invoice ${invoice.id}, which is ${invoice.status}${invoice.paymentInProgressId ? ' with a payment under way' : ''}: what it owes can no longer rise.`, {
      invoice_status: invoice.status,
    });
  }
  const now = deps.now();
  if (note.balanceCreditAmount > 0) {
    const balance = await readBalance(tx, { customerId: note.customerId, currency: note.currency, lock: true });
    // Negative is credit: the balance must still hold at least the note's credit.
    if (-balance < note.balanceCreditAmount) {
      throw notVoidable(id, 'BALANCE_SPENT', `its ${note.balanceCreditAmount} credit to the customer's balance has been spent (the ${note.currency} balance is ${balance}).`, {
        balance,
        balance_credit_amount: note.balanceCreditAmount,
      });
    }
    await appendBalanceTransaction(tx, {
      accountId: note.accountId,
      customerId: note.customerId,
      currency: note.currency,
      amount: note.balanceCreditAmount,
      type: 'CREDIT_NOTE',
      description: `Credit note ${id} voided`,
      invoiceId: note.invoiceId,
      creditNoteId: id,
      now,
    });
  }
  const invoiceRow =
    note.prePaymentAmount > 0 ? await updateInvoiceColumns(tx, invoice, { amountDue: invoice.amountDue + note.prePaymentAmount, updatedAt: now }) : invoice;
  const voided = await tx.creditNote.update({ where: { id }, data: { status: 'VOIDED', voidedAt: now, updatedAt: now }, select: creditNoteSelect });
  const object = serializeCreditNote(voided, now);
  await recordEvent(tx, {
    accountId: voided.accountId,
    channelId: voided.channelId,
    name: 'CreditNoteVoided',
    data: { credit_note: object, invoice: serializeInvoice(invoiceRow, { now }) },
    occurredAt: now,
  });
  return object;
}
