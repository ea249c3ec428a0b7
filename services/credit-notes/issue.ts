import type { CreditNoteOrigin, CreditNoteReason } from '../../domain/credit-note-reasons';
import { newId } from '../../domain/ids';
import { nextStatus } from '../../domain/invoice-status';
import type { Prisma } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import { appendBalanceTransaction } from '../customer-balance/append-transaction';
import { serializeInvoice, type InvoiceObject, type InvoiceRow } from '../invoices/invoice-object';
import { updateInvoiceColumns } from '../invoices/invoice-columns-update';
import { reserveRefund } from '../payments/refunds';
import { creditNoteSelect, serializeCreditNote, type CreditNoteObject, type CreditNoteRow } from './credit-note-object';
import { nextCreditNoteNumber } from './number';
import type { CreditNotePlan } from './plan';

type Db = Prisma.TransactionClient;

export interface IssueOptions {
  reason: CreditNoteReason;
  memo?: string | null;
  origin: CreditNoteOrigin;
  now: Date;
}

export interface Issued {
  row: CreditNoteRow;
  note: CreditNoteObject;
  invoice: InvoiceObject;
}

/**
 * Writes a planned credit note and its money movements in the caller's transaction, under the
 * invoice's lock (docs/credit-notes.md, "Money"): amount_due drops by the pre-payment part (an
 * invoice left owing nothing is PAID, InvoicePaid), the refund part is reserved as one refund of
 * the captured payment (finished with the provider after the commit, finishRefund), the balance
 * part is a CREDIT_NOTE transaction crediting the customer's ledger. Then the note, numbered
 * last, and CreditNoteCreated.
 */
export async function issueCreditNote(tx: Db, plan: CreditNotePlan, options: IssueOptions): Promise<Issued> {
  const { invoice: before, allocation, amounts } = plan;
  const { now } = options;
  const id = newId('creditNote', now.getTime());
  const refundId = plan.refundFrom
    ? await reserveRefund(tx, {
        invoice: before,
        payment: plan.refundFrom.payment,
        amount: allocation.refund,
        reason: `Credit note ${id}`,
        key: `${before.id}/credit-note/${id}`,
        now,
      })
    : null;
  const balanceTransaction =
    allocation.balanceCredit > 0
      ? await appendBalanceTransaction(tx, {
          accountId: before.accountId,
          customerId: before.customerId,
          currency: before.currency,
          amount: -allocation.balanceCredit,
          type: 'CREDIT_NOTE',
          description: `Credit note ${id}`,
          invoiceId: before.id,
          creditNoteId: id,
          now,
        })
      : null;
  let invoiceRow: InvoiceRow = before;
  let settled = false;
  if (allocation.prePayment > 0) {
    const amountDue = before.amountDue - allocation.prePayment;
    settled = amountDue === 0 && before.status !== 'PAID';
    invoiceRow = await updateInvoiceColumns(tx, before, {
      amountDue,
      ...(settled ? { status: nextStatus('creditedInFull', before.status), paidAt: now } : {}),
      updatedAt: now,
    });
  }
  const row = await tx.creditNote.create({
    select: creditNoteSelect,
    data: {
      id,
      accountId: before.accountId,
      channelId: before.channelId,
      invoiceId: before.id,
      customerId: before.customerId,
      number: await nextCreditNoteNumber(tx, before.accountId),
      status: 'ISSUED',
      currency: before.currency,
      reason: options.reason,
      memo: options.memo ?? null,
      origin: options.origin,
      totalAmount: amounts.total,
      taxAmount: amounts.tax,
      prePaymentAmount: allocation.prePayment,
      refundAmount: allocation.refund,
      balanceCreditAmount: allocation.balanceCredit,
      outOfBandAmount: allocation.outOfBand,
      refundId,
      balanceTransactionId: balanceTransaction?.id ?? null,
      createdAt: now,
      updatedAt: now,
      lines: {
        create: amounts.lines.map((line, position) => ({
          id: newId('creditNoteLine', now.getTime()),
          position,
          invoiceLineItemId: line.invoiceLineItemId,
          description: line.description,
          quantity: line.quantity,
          taxable: line.taxable,
          tax: line.tax,
          taxMode: line.taxMode,
          taxRate: line.taxRate,
          total: line.total,
        })),
      },
    },
  });
  const note = serializeCreditNote(row, now);
  const invoice = serializeInvoice(invoiceRow, { now });
  await recordEvent(tx, { accountId: row.accountId, channelId: row.channelId, name: 'CreditNoteCreated', data: { credit_note: note, invoice }, occurredAt: now });
  if (settled) {
    await recordEvent(tx, { accountId: row.accountId, channelId: row.channelId, name: 'InvoicePaid', data: { invoice, credit_note: note }, occurredAt: now });
  }
  return { row, note, invoice };
}
