import { z } from 'zod';
import { CREDIT_NOTE_ORIGINS, CREDIT_NOTE_REASONS, CREDIT_NOTE_STATUSES } from '../../domain/credit-note-reasons';
import { MAX_INVOICE_AMOUNT, TAX_MODES } from '../../domain/invoice-amounts';
import type { CreditNoteInput } from '../../services/credit-notes/plan';
import { INVOICE_PDF_URL_TTL_SECONDS } from '../../services/invoices/pdf-url';
import { channelIdField, dateTime, prefixedId } from '../common/schemas';
import { invoiceId, MAX_LINE_ITEMS, MAX_QUANTITY } from '../invoices/schemas';

export const creditNoteId = prefixedId('creditNote');
export const creditNoteStatus = z.enum(CREDIT_NOTE_STATUSES);

const amount = z.number().int().min(1).max(MAX_INVOICE_AMOUNT);
const splitAmount = z.number().int().min(0).max(MAX_INVOICE_AMOUNT);

const lineCredit = z
  .strictObject({
    line_item_id: prefixedId('invoiceLineItem').meta({ description: 'A line of the invoice (`line_items[].id`).' }),
    quantity: z.number().int().min(1).max(MAX_QUANTITY).optional().meta({ description: 'Units of the line to credit.' }),
    amount: amount.optional().meta({ description: 'Minor units of the line’s taxable amount to credit (tax inside it for an INCLUSIVE line); its tax is recomputed.' }),
  })
  .superRefine((line, ctx) => {
    if ((line.quantity === undefined) === (line.amount === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['quantity'], message: 'Give either quantity or amount.', params: { type: line.quantity === undefined ? 'REQUIRED' : 'INVALID' } });
    }
  })
  .meta({ oneOf: [{ required: ['quantity'] }, { required: ['amount'] }] });

/** The request of credit-notes/preview and credit-notes/create. */
export const creditNoteRequest = z
  .strictObject({
    invoice_id: invoiceId,
    amount: amount.optional().meta({ description: 'A lump sum to credit, tax included; no tax is attributed. Give this or `lines`.' }),
    lines: z.array(lineCredit).min(1).max(MAX_LINE_ITEMS).optional().meta({ description: 'Invoice lines to credit, by quantity or amount, each taxed as its line. Give this or `amount`.' }),
    reason: z.enum(CREDIT_NOTE_REASONS),
    memo: z.string().trim().min(1).max(500).optional(),
    refund_amount: splitAmount.optional().meta({ description: 'Of the part covering money already paid: refunded to the instrument that paid (one refund).' }),
    balance_credit_amount: splitAmount.optional().meta({ description: 'Of the part covering money already paid: credited to the customer’s balance in the invoice’s currency.' }),
    out_of_band_amount: splitAmount.optional().meta({ description: 'Of the part covering money already paid: given back outside the platform, recorded only.' }),
    channel_id: channelIdField,
  })
  .superRefine((body, ctx) => {
    if ((body.amount === undefined) === (body.lines === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Give either amount or lines.', params: { type: body.amount === undefined ? 'REQUIRED' : 'INVALID' } });
    }
  })
  .meta({ oneOf: [{ required: ['amount'] }, { required: ['lines'] }] });

export type CreditNoteRequest = z.infer<typeof creditNoteRequest>;

export function creditNoteInputOf(body: CreditNoteRequest): CreditNoteInput {
  return {
    invoiceId: body.invoice_id,
    credit: body.lines
      ? { lines: body.lines.map((line) => (line.quantity !== undefined ? { line_item_id: line.line_item_id, quantity: line.quantity } : { line_item_id: line.line_item_id, amount: line.amount! })) }
      : { amount: body.amount! },
    split: { refund: body.refund_amount, balanceCredit: body.balance_credit_amount, outOfBand: body.out_of_band_amount },
    reason: body.reason,
    ...(body.memo !== undefined ? { memo: body.memo } : {}),
  };
}

const creditNoteLine = z
  .object({
    id: z.string().optional().meta({ description: 'Absent in a preview.' }),
    line_item_id: z.string().optional().meta({ description: 'The invoice line credited; absent for a lump sum.' }),
    description: z.string().optional(),
    quantity: z.number().int().optional().meta({ description: 'Units credited, when given by quantity.' }),
    taxable_amount: z.number().int(),
    tax_amount: z.number().int(),
    total_amount: z.number().int().meta({ description: 'taxable_amount plus EXCLUSIVE tax.' }),
    tax: z.object({ mode: z.enum(TAX_MODES), rate: z.number() }).optional(),
  })
  .meta({ id: 'CreditNoteLine' });

const moneyFields = {
  invoice_id: z.string(),
  customer_id: z.string(),
  currency: z.string(),
  reason: z.enum(CREDIT_NOTE_REASONS),
  memo: z.string().optional(),
  lines: z.array(creditNoteLine),
  total_amount: z.number().int(),
  tax_amount: z.number().int(),
  pre_payment_amount: z.number().int().meta({ description: 'Taken off the invoice’s amount_due.' }),
  post_payment_amount: z.number().int().meta({ description: 'Covers money already paid: refund_amount + balance_credit_amount + out_of_band_amount.' }),
  refund_amount: z.number().int(),
  balance_credit_amount: z.number().int(),
  out_of_band_amount: z.number().int(),
};

export const creditNotePreviewObject = z
  .object({ ...moneyFields, invoice_amount_due: z.number().int().meta({ description: 'The invoice’s amount_due once the note is issued.' }) })
  .meta({ id: 'CreditNotePreview' });

export const creditNoteObject = z
  .object({
    id: z.string(),
    number: z.number().int().meta({ description: 'Sequential per account from 1, without gaps.' }),
    channel_id: z.string(),
    status: creditNoteStatus,
    origin: z.enum(CREDIT_NOTE_ORIGINS),
    ...moneyFields,
    refund_id: z.string().optional(),
    balance_transaction_id: z.string().optional(),
    pdf_url: z
      .string()
      .optional()
      .meta({ description: `Signed link to the PDF, valid ${INVOICE_PDF_URL_TTL_SECONDS / 86_400} days from the answer or event that carries it (docs/invoice-pdf.md).` }),
    voided_at: dateTime.optional(),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: 'CreditNote' });

/** The 422 codes of credit-notes/preview and credit-notes/create, for the OpenAPI descriptions. */
export const CREATE_REFUSALS =
  '422: INCOMPATIBLE_STATUS (invoice not OPEN, DUNNING, UNPAID or PAID, or a charge of it under way), INVOICE_LINE_ITEM_NOT_FOUND, CREDIT_NOTE_EXCEEDS_LINE, CREDIT_NOTE_EXCEEDS_INVOICE, CREDIT_NOTE_SPLIT_MISMATCH, CREDIT_NOTE_EMPTY, REFUND_EXCEEDS_PAYMENT. docs/credit-notes.md.';
