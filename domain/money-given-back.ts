/**
 * What is left to give back of an invoice's payments (docs/invoice-payments.md, "What is left to
 * give back"): paid − refunds − the post-payment parts of its ISSUED credit notes. Every path that
 * gives money back (invoices/refund, a credit note's refund, balance-credit and out-of-band parts,
 * a proration refund) asks this of the same rows, read under the invoice's row lock, so the money
 * given back never exceeds what was paid, whichever paths and order.
 */

export interface GivenBackRefund {
  id: string;
  amount: number;
  status: string;
}

export interface GivenBackNote {
  /** The refund its refund part made, if any. */
  refundId: string | null;
  refundAmount: number;
  balanceCreditAmount: number;
  outOfBandAmount: number;
}

export interface MoneyGivenBackState {
  amountPaid: number;
  /** Every refund of the invoice, whatever its status. */
  refunds: readonly GivenBackRefund[];
  /** The invoice's ISSUED credit notes; a VOIDED note gave its credit back to the invoice. */
  issuedNotes: readonly GivenBackNote[];
}

export interface MoneyGivenBack {
  givenBack: number;
  /** Never below 0, even over records that already gave back too much. */
  left: number;
}

export function moneyGivenBack(state: MoneyGivenBackState): MoneyGivenBack {
  // A note's refund counts as the note's, FAILED or not (the document stands and says so); a
  // refund made without a note (invoices/refund) counts while it is not FAILED.
  const noteRefunds = new Set(state.issuedNotes.flatMap((note) => (note.refundId ? [note.refundId] : [])));
  const directRefunds = state.refunds.filter((refund) => refund.status !== 'FAILED' && !noteRefunds.has(refund.id)).reduce((sum, refund) => sum + refund.amount, 0);
  const notes = state.issuedNotes.reduce((sum, note) => sum + note.refundAmount + note.balanceCreditAmount + note.outOfBandAmount, 0);
  const givenBack = directRefunds + notes;
  return { givenBack, left: Math.max(0, state.amountPaid - givenBack) };
}
