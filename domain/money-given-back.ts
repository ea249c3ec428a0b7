/**
 * What is left to give back of an invoice's payments (docs/invoice-payments.md, "What is left to
 * give back"): paid − refunds − the post-payment parts of its ISSUED credit notes, where paid is
 * what the provider captured plus, once the invoice is PAID, the customer balance finalization
 * applied to it; a refund, which goes back through the provider, is further held to what the
 * provider captured less what was refunded. Every path that gives money back (invoices/refund, a
 * credit note's refund, balance-credit and out-of-band parts, a proration refund or balance
 * credit) asks this of the same rows, read under the invoice's row lock, so the money given back
 * never exceeds what was paid, nor a refund what the card paid, whichever paths and order.
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
  /** What the provider captured. */
  amountPaid: number;
  /**
   * amount_details.balance_applied: the customer balance finalization took (negative when it
   * added a debit, which amount_paid then includes).
   */
  balanceApplied: number;
  /** Only a PAID invoice keeps the balance it took: voiding an unpaid one gives it back already. */
  paid: boolean;
  /** Every refund of the invoice, whatever its status. */
  refunds: readonly GivenBackRefund[];
  /** The invoice's ISSUED credit notes; a VOIDED note gave its credit back to the invoice. */
  issuedNotes: readonly GivenBackNote[];
}

export interface MoneyGivenBack {
  givenBack: number;
  /** What a balance credit or an out-of-band part may still give back; never below 0, even over records that already gave back too much. */
  left: number;
  /** What a refund may still give back: `left`, at most amount_paid less the refunds counted; never below 0. */
  refundable: number;
}

export function moneyGivenBack(state: MoneyGivenBackState): MoneyGivenBack {
  // A note's refund counts as the note's, FAILED or not (the document stands and says so); a
  // refund made without a note (invoices/refund) counts while it is not FAILED.
  const noteRefunds = new Set(state.issuedNotes.flatMap((note) => (note.refundId ? [note.refundId] : [])));
  const directRefunds = state.refunds.filter((refund) => refund.status !== 'FAILED' && !noteRefunds.has(refund.id)).reduce((sum, refund) => sum + refund.amount, 0);
  const noteRefundParts = state.issuedNotes.reduce((sum, note) => sum + note.refundAmount, 0);
  const notesElsewhere = state.issuedNotes.reduce((sum, note) => sum + note.balanceCreditAmount + note.outOfBandAmount, 0);
  const refunded = directRefunds + noteRefundParts;
  const givenBack = refunded + notesElsewhere;
  const balanceConsumed = state.paid ? Math.max(0, state.balanceApplied) : 0;
  const left = Math.max(0, state.amountPaid + balanceConsumed - givenBack);
  return { givenBack, left, refundable: Math.max(0, Math.min(left, state.amountPaid - refunded)) };
}
