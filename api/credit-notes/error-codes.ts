import type { ResourceErrorCodes } from '../openapi/operation-types';

/** The rules a credit note is planned by (services/credit-notes/plan.ts): preview and create alike. */
const PLAN = {
  INCOMPATIBLE_STATUS:
    'The invoice is not OPEN, DUNNING, UNPAID or PAID (`context.status`, `context.allowed_statuses`), or a charge of it is under way (`context.payment_in_progress`). docs/credit-notes.md.',
  INVOICE_LINE_ITEM_NOT_FOUND: 'A `lines[].line_item_id` is not a line of the invoice; `context.field`, `context.line_item_id`.',
  CREDIT_NOTE_EXCEEDS_LINE:
    'A line credit asks more units or more amount than earlier notes left of the line; `context.field`, `context.line_item_id`, `context.remaining_quantity`, `context.remaining_amount`.',
  CREDIT_NOTE_EXCEEDS_INVOICE:
    'The note comes to more than the invoice still owes plus what was paid and not yet given back; `context.total_amount`, `context.creditable_amount`, `context.amount_due`, `context.post_payment_creditable`.',
  CREDIT_NOTE_SPLIT_MISMATCH:
    '`refund_amount` + `balance_credit_amount` + `out_of_band_amount` differ from the part of the note that covers money already paid; `context.pre_payment_amount`, `context.post_payment_amount` and the three amounts.',
  CREDIT_NOTE_EMPTY: 'The lines named come to 0.',
  REFUND_EXCEEDS_PAYMENT:
    '`refund_amount` is more than is left to refund of the captured payment, or the invoice has none; `context.refund_amount`, `context.refundable`, `context.payment_id`.',
};

export const creditNoteErrorCodes = {
  preview: PLAN,
  create: {
    ...PLAN,
    BALANCE_OUT_OF_RANGE: '`balance_credit_amount` would move the customer’s balance outside the 32-bit integer range; nothing is written.',
  },
  void: {
    INCOMPATIBLE_STATUS: 'The note is already VOIDED; `context.status`, `context.allowed_statuses`.',
    CREDIT_NOTE_NOT_VOIDABLE:
      'Its money movement cannot be undone; `context.reason`: `REFUNDED` (a refund is never undone), `BALANCE_SPENT` (the customer’s balance no longer holds its credit; `context.balance`), `INVOICE_SETTLED` (it lowered `amount_due` of an invoice now PAID or VOIDED, or being charged), `AUTOMATIC` (it documents a proration credit the platform made; `context.origin`).',
  },
} satisfies ResourceErrorCodes<'credit-notes'>;
