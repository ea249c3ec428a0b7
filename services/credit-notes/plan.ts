import { allocateCredit, type CreditAllocation, type RequestedSplit } from '../../domain/credit-note-allocation';
import { computeCreditNoteAmounts, type CreditableLine, type CreditNoteAmounts, type CreditRequest } from '../../domain/credit-note-amounts';
import { CREDITABLE_INVOICE_STATUSES, type CreditNoteReason } from '../../domain/credit-note-reasons';
import { ApiError } from '../../domain/errors';
import type { TaxMode } from '../../domain/invoice-amounts';
import type { Prisma } from '../../prisma/client';
import type { InvoiceRow } from '../invoices/invoice-object';
import { readMoneyGivenBack } from '../payments/left-to-give-back';
import { refundablePayment } from '../payments/refunds';

type Db = Prisma.TransactionClient;

/** A credit note as credit-notes/preview and credit-notes/create take it. */
export interface CreditNoteInput {
  invoiceId: string;
  credit: CreditRequest;
  split: RequestedSplit;
  reason: CreditNoteReason;
  memo?: string;
}

/** Everything create writes and preview shows, decided on the invoice as it stands. */
export interface CreditNotePlan {
  invoice: InvoiceRow;
  amounts: CreditNoteAmounts;
  allocation: CreditAllocation;
  /** The captured payment a refund part goes back to. */
  refundFrom?: { payment: NonNullable<Awaited<ReturnType<typeof refundablePayment>>>['payment'] };
}

/**
 * Decides a credit note against `invoice` (docs/credit-notes.md): the statuses it may be
 * issued in (422 INCOMPATIBLE_STATUS, also while a charge is under way: that charge was claimed
 * for the amount due as it was), its lines and tax (domain/credit-note-amounts.ts), what it
 * leaves to credit and where its money goes (domain/credit-note-allocation.ts), and that a
 * refund part fits the captured payment (422 REFUND_EXCEEDS_PAYMENT). Writes nothing.
 */
export async function planCreditNote(tx: Db, invoice: InvoiceRow, input: CreditNoteInput): Promise<CreditNotePlan> {
  if (!(CREDITABLE_INVOICE_STATUSES as readonly string[]).includes(invoice.status)) {
    throw new ApiError('INCOMPATIBLE_STATUS', `The invoice is ${invoice.status}; a credit note needs it finalized and not voided.`, {
      status: invoice.status,
      allowed_statuses: [...CREDITABLE_INVOICE_STATUSES],
    });
  }
  if (invoice.paymentInProgressId) {
    throw new ApiError('INCOMPATIBLE_STATUS', `A payment of invoice ${invoice.id} is under way; issue the credit note once that payment has finished.`, {
      status: invoice.status,
      payment_in_progress: true,
    });
  }
  const [issued, given] = await Promise.all([
    tx.creditNote.findMany({
      where: { invoiceId: invoice.id, status: 'ISSUED' },
      select: { lines: { select: { invoiceLineItemId: true, quantity: true, taxable: true } } },
    }),
    readMoneyGivenBack(tx, invoice.id),
  ]);
  const amounts = computeCreditNoteAmounts(creditableLines(invoice, issued), input.credit);
  const allocation = allocateCredit(amounts.total, { amountDue: invoice.amountDue, postPaymentCreditable: given.left }, input.split);

  if (allocation.refund === 0) return { invoice, amounts, allocation };
  const payment = await refundablePayment(tx, invoice.id);
  // The balance a PAID invoice consumed is part of what it may give back, but never to the card.
  const found = payment && { payment: payment.payment, refundable: Math.min(payment.refundable, given.refundable) };
  if (!found || found.refundable < allocation.refund) {
    throw new ApiError(
      'REFUND_EXCEEDS_PAYMENT',
      found
        ? `Payment ${found.payment.id} has ${found.refundable} left to refund; refund_amount asks ${allocation.refund}.`
        : `Invoice ${invoice.id} was not paid through a provider: there is no payment to refund; credit the balance or record it out of band.`,
      { refund_amount: allocation.refund, refundable: found?.refundable ?? 0, ...(found ? { payment_id: found.payment.id } : {}) },
    );
  }
  return { invoice, amounts, allocation, refundFrom: { payment: found.payment } };
}

type IssuedLines = Array<{ lines: Array<{ invoiceLineItemId: string | null; quantity: number | null; taxable: number }> }>;

function creditableLines(invoice: InvoiceRow, issued: IssuedLines): CreditableLine[] {
  const credited = new Map<string, { quantity: number; taxable: number }>();
  for (const line of issued.flatMap((note) => note.lines)) {
    if (!line.invoiceLineItemId) continue;
    const sum = credited.get(line.invoiceLineItemId) ?? { quantity: 0, taxable: 0 };
    credited.set(line.invoiceLineItemId, { quantity: sum.quantity + (line.quantity ?? 0), taxable: sum.taxable + line.taxable });
  }
  return invoice.lineItems.map((line) => ({
    id: line.id,
    description: line.description,
    quantity: line.quantity,
    taxable: line.taxable,
    tax: line.taxMode && line.taxRate ? { mode: line.taxMode as TaxMode, rate: line.taxRate.toString() } : null,
    credited: credited.get(line.id) ?? { quantity: 0, taxable: 0 },
  }));
}
