import type { Database } from '../../prisma/client';
import { visibleInvoice } from '../invoices/repository';
import type { Scope } from '../scope';
import { creditNoteLineObject, type CreditNotePreviewObject } from './credit-note-object';
import { planCreditNote, type CreditNoteInput } from './plan';

/**
 * credit-notes/preview: the note credit-notes/create would issue now, decided by the same plan
 * and refused with the same 422s, written nowhere.
 */
export async function previewCreditNote(deps: { db: Database }, scope: Scope, input: CreditNoteInput): Promise<CreditNotePreviewObject> {
  const { invoice, amounts, allocation } = await planCreditNote(deps.db, await visibleInvoice(deps.db, scope, input.invoiceId), input);
  return {
    invoice_id: invoice.id,
    customer_id: invoice.customerId,
    currency: invoice.currency,
    reason: input.reason,
    ...(input.memo !== undefined ? { memo: input.memo } : {}),
    lines: amounts.lines.map(creditNoteLineObject),
    total_amount: amounts.total,
    tax_amount: amounts.tax,
    pre_payment_amount: allocation.prePayment,
    post_payment_amount: amounts.total - allocation.prePayment,
    refund_amount: allocation.refund,
    balance_credit_amount: allocation.balanceCredit,
    out_of_band_amount: allocation.outOfBand,
    invoice_amount_due: invoice.amountDue - allocation.prePayment,
  };
}
