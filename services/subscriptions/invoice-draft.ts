import type { InvoiceAmounts } from '../../domain/invoice-amounts';
import { invoiceTerms, type PlannedInvoice } from '../../domain/subscriptions/billing';
import type { SubscriptionState } from '../../domain/subscriptions/state';
import { amountsOf, type DraftState } from '../invoices/repository';

export interface SubscriptionInvoice {
  billingReason: PlannedInvoice['billingReason'];
  /** What the invoice row is written from. */
  draft: DraftState;
  /** Its lines, discounts, tax and totals, as the invoice rules compute them (amountsOf, the rule createInvoiceRecord stores). */
  amounts: InvoiceAmounts;
}

/**
 * The invoice a subscription in `state` issues at `issuedAt` for the planned lines (a cycle's,
 * a PAID trial's, an update's proration): its lines with their taxes, the subscription's
 * discounts, its collection terms, and the amounts. The one place a subscription invoice is put
 * together: saveSubscriptionStep writes it (renewals and prorations), invoices/preview shows it
 * without writing (docs/invoice-preview.md), so a preview is the invoice that will be issued.
 */
export function buildSubscriptionInvoice(state: SubscriptionState, planned: PlannedInvoice, issuedAt: number): SubscriptionInvoice {
  const terms = invoiceTerms(state, issuedAt);
  const draft: DraftState = {
    lines: planned.lines,
    discounts: state.discounts,
    collectionMethod: terms.collectionMethod,
    paymentInstrumentId: state.paymentInstrumentId,
    dueAt: terms.dueAt === null ? null : new Date(terms.dueAt),
    notes: null,
    merchantReference: state.merchantReference,
    metadata: null,
  };
  return { billingReason: planned.billingReason, draft, amounts: amountsOf(draft) };
}
