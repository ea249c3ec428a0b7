/** Why a credit note was issued (docs/credit-notes.md). */
export const CREDIT_NOTE_REASONS = ['DUPLICATE', 'FRAUDULENT', 'ORDER_CHANGE', 'PRODUCT_UNSATISFACTORY', 'OTHER'] as const;
export type CreditNoteReason = (typeof CREDIT_NOTE_REASONS)[number];

/** ISSUED while it stands; VOIDED once its money movement was undone. */
export const CREDIT_NOTE_STATUSES = ['ISSUED', 'VOIDED'] as const;
export type CreditNoteStatus = (typeof CREDIT_NOTE_STATUSES)[number];

/** API: credit-notes/create. PRORATION: a subscription change or termination gave money back. */
export const CREDIT_NOTE_ORIGINS = ['API', 'PRORATION'] as const;
export type CreditNoteOrigin = (typeof CREDIT_NOTE_ORIGINS)[number];

/** Invoice statuses a credit note may be issued against: finalized and not voided. */
export const CREDITABLE_INVOICE_STATUSES = ['OPEN', 'DUNNING', 'UNPAID', 'PAID'] as const;
