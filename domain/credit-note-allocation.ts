import { ApiError } from './errors';

/**
 * Where a credit note's money goes (docs/credit-notes.md, "Money"): first off what the invoice
 * still owes (amount_due), since giving back money that is still owed would only be charged
 * again; the rest covers money already paid and is split exactly as the caller asks between a
 * refund, a credit to the customer balance and out of band.
 */
export interface InvoiceCreditState {
  amountDue: number;
  /** Paid and not yet given back by refunds or earlier credit notes. */
  postPaymentCreditable: number;
}

export interface RequestedSplit {
  refund?: number;
  balanceCredit?: number;
  outOfBand?: number;
}

export interface CreditAllocation {
  prePayment: number;
  refund: number;
  balanceCredit: number;
  outOfBand: number;
}

export function allocateCredit(total: number, invoice: InvoiceCreditState, split: RequestedSplit): CreditAllocation {
  const prePayment = Math.min(total, invoice.amountDue);
  const postPayment = total - prePayment;
  if (postPayment > invoice.postPaymentCreditable) {
    throw new ApiError(
      'CREDIT_NOTE_EXCEEDS_INVOICE',
      `The credit note comes to ${total}; the invoice has ${invoice.amountDue + invoice.postPaymentCreditable} left to credit (${invoice.amountDue} still owed, ${invoice.postPaymentCreditable} paid and not yet given back).`,
      {
        total_amount: total,
        creditable_amount: invoice.amountDue + invoice.postPaymentCreditable,
        amount_due: invoice.amountDue,
        post_payment_creditable: invoice.postPaymentCreditable,
      },
    );
  }
  const allocation = { prePayment, refund: split.refund ?? 0, balanceCredit: split.balanceCredit ?? 0, outOfBand: split.outOfBand ?? 0 };
  const asked = allocation.refund + allocation.balanceCredit + allocation.outOfBand;
  if (asked !== postPayment) {
    throw new ApiError(
      'CREDIT_NOTE_SPLIT_MISMATCH',
      `${postPayment} of the credit note covers money already paid; refund_amount, balance_credit_amount and out_of_band_amount must add up to it (they add up to ${asked}).`,
      {
        total_amount: total,
        pre_payment_amount: prePayment,
        post_payment_amount: postPayment,
        refund_amount: allocation.refund,
        balance_credit_amount: allocation.balanceCredit,
        out_of_band_amount: allocation.outOfBand,
      },
    );
  }
  return allocation;
}
