import { ApiError } from './errors';

/**
 * The invoice state machine (docs/invoices.md, "Statuses"): every move of an invoice between
 * the six statuses of section 3, and the operation or event behind it. The API operations and
 * the collection workflow both ask this table, so a rule is written once.
 */
export const INVOICE_STATUSES = ['DRAFT', 'OPEN', 'PAID', 'VOIDED', 'DUNNING', 'UNPAID'] as const;

export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** `deleted` is not a status: a deleted draft keeps DRAFT and gets `deleted_at`, and is gone from the API. */
export type InvoiceTarget = InvoiceStatus | 'deleted';

interface Transition {
  from: readonly InvoiceStatus[];
  to: InvoiceTarget;
  /** Who moves it: an API operation or the collection workflow. */
  by: string;
}

export const INVOICE_TRANSITIONS = {
  /** invoices/update: a draft stays a draft. */
  update: { from: ['DRAFT'], to: 'DRAFT', by: 'invoices/update' },
  /** invoices/finalize with something to collect. */
  finalize: { from: ['DRAFT'], to: 'OPEN', by: 'invoices/finalize' },
  /** invoices/finalize of an invoice with nothing due (a zero total, credit covering it, a negative total): nothing to collect. */
  finalizeZeroTotal: { from: ['DRAFT'], to: 'PAID', by: 'invoices/finalize' },
  /** invoices/delete: soft delete. */
  delete: { from: ['DRAFT'], to: 'deleted', by: 'invoices/delete' },
  /** invoices/void: the invoice is no longer owed. PAID and VOIDED are final. */
  void: { from: ['OPEN', 'DUNNING', 'UNPAID'], to: 'VOIDED', by: 'invoices/void' },
  /** invoices/pay: a manual payment, also late, after dunning gave up (the debt still stands). */
  pay: { from: ['OPEN', 'DUNNING', 'UNPAID'], to: 'PAID', by: 'invoices/pay' },
  /** The collection workflow's automatic charge, first attempt or a dunning retry, succeeded. */
  chargeSucceeded: { from: ['OPEN', 'DUNNING'], to: 'PAID', by: 'invoiceCollectionWorkflow' },
  /** The first automatic charge failed with a retryable decline: dunning starts. */
  chargeFailedRetryable: { from: ['OPEN'], to: 'DUNNING', by: 'invoiceCollectionWorkflow' },
  /** An automatic charge failed for good (a decline that retrying cannot fix). */
  chargeFailedFinal: { from: ['OPEN', 'DUNNING'], to: 'UNPAID', by: 'invoiceCollectionWorkflow' },
  /** The dunning schedule ran out of attempts, or a sent invoice's grace after its due date ran out. */
  dunningExhausted: { from: ['DUNNING'], to: 'UNPAID', by: 'invoiceCollectionWorkflow' },
  /** A sent (SEND_INVOICE) invoice of a subscription reached its due date unpaid: dunning starts. */
  pastDue: { from: ['OPEN'], to: 'DUNNING', by: 'invoiceCollectionWorkflow' },
  /** Credit notes took off everything still owed (docs/credit-notes.md): nothing is left to collect. */
  creditedInFull: { from: ['OPEN', 'DUNNING', 'UNPAID'], to: 'PAID', by: 'credit-notes/create' },
} as const satisfies Record<string, Transition>;

export type InvoiceTransition = keyof typeof INVOICE_TRANSITIONS;

/** Statuses nothing moves out of. */
export const FINAL_STATUSES: readonly InvoiceStatus[] = INVOICE_STATUSES.filter(
  (status) => !Object.values(INVOICE_TRANSITIONS).some((t: Transition) => t.from.includes(status) && t.to !== status),
);

export function canTransition(transition: InvoiceTransition, from: string): boolean {
  return (INVOICE_TRANSITIONS[transition].from as readonly string[]).includes(from);
}

/**
 * The status `transition` leads to from `from`, or 422 INCOMPATIBLE_STATUS with
 * `context: {status, allowed_statuses}` when it does not apply there.
 */
export function nextStatus<T extends InvoiceTransition>(transition: T, from: string): (typeof INVOICE_TRANSITIONS)[T]['to'] {
  const rule = INVOICE_TRANSITIONS[transition];
  if (!canTransition(transition, from)) {
    throw new ApiError(
      'INCOMPATIBLE_STATUS',
      `The invoice is ${from}; ${rule.by} (${transition}) needs it to be ${rule.from.join(' or ')}.`,
      { status: from, allowed_statuses: [...rule.from] },
    );
  }
  return rule.to;
}
