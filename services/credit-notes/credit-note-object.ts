import { formatDateTime } from '../../domain/datetime';
import type { CreditNoteOrigin, CreditNoteReason, CreditNoteStatus } from '../../domain/credit-note-reasons';
import type { TaxMode } from '../../domain/invoice-amounts';
import type { Prisma } from '../../prisma/client';
import { creditNotePdfUrl } from './pdf-url';

export const creditNoteSelect = {
  id: true,
  accountId: true,
  channelId: true,
  invoiceId: true,
  customerId: true,
  number: true,
  status: true,
  currency: true,
  reason: true,
  memo: true,
  origin: true,
  totalAmount: true,
  taxAmount: true,
  prePaymentAmount: true,
  refundAmount: true,
  balanceCreditAmount: true,
  outOfBandAmount: true,
  refundId: true,
  balanceTransactionId: true,
  voidedAt: true,
  createdAt: true,
  updatedAt: true,
  lines: { orderBy: { position: 'asc' } },
} as const satisfies Prisma.CreditNoteSelect;

export type CreditNoteRow = Prisma.CreditNoteGetPayload<{ select: typeof creditNoteSelect }>;

export interface CreditNoteLineObject {
  id?: string;
  line_item_id?: string;
  description?: string;
  quantity?: number;
  taxable_amount: number;
  tax_amount: number;
  total_amount: number;
  tax?: { mode: TaxMode; rate: number };
}

/** What credit-notes/preview answers: the note as create would issue it, before it has an id or a number. */
export interface CreditNotePreviewObject {
  invoice_id: string;
  customer_id: string;
  currency: string;
  reason: CreditNoteReason;
  memo?: string;
  lines: CreditNoteLineObject[];
  total_amount: number;
  tax_amount: number;
  pre_payment_amount: number;
  post_payment_amount: number;
  refund_amount: number;
  balance_credit_amount: number;
  out_of_band_amount: number;
  /** The invoice's amount_due once the note is issued. */
  invoice_amount_due: number;
}

export interface CreditNoteObject extends Omit<CreditNotePreviewObject, 'invoice_amount_due'> {
  id: string;
  number: number;
  channel_id: string;
  status: CreditNoteStatus;
  origin: CreditNoteOrigin;
  refund_id?: string;
  balance_transaction_id?: string;
  pdf_url?: string;
  voided_at?: string;
  created_at: string;
  updated_at: string;
}

type LineFields = Pick<CreditNoteRow['lines'][number], 'invoiceLineItemId' | 'description' | 'quantity' | 'taxable' | 'tax' | 'total' | 'taxMode'> & {
  id?: string;
  taxRate: { toString(): string } | string | null;
};

export function creditNoteLineObject(line: LineFields): CreditNoteLineObject {
  return {
    ...(line.id ? { id: line.id } : {}),
    ...(line.invoiceLineItemId ? { line_item_id: line.invoiceLineItemId } : {}),
    ...(line.description !== null ? { description: line.description } : {}),
    ...(line.quantity !== null ? { quantity: line.quantity } : {}),
    taxable_amount: line.taxable,
    tax_amount: line.tax,
    total_amount: line.total,
    ...(line.taxMode && line.taxRate !== null ? { tax: { mode: line.taxMode as TaxMode, rate: Number(line.taxRate.toString()) } } : {}),
  };
}

/** The credit note as every credit-notes operation answers and its events carry (docs/credit-notes.md). */
export function serializeCreditNote(row: CreditNoteRow, now: Date): CreditNoteObject {
  const pdfUrl = creditNotePdfUrl(row.id, now);
  return {
    id: row.id,
    number: row.number,
    channel_id: row.channelId,
    invoice_id: row.invoiceId,
    customer_id: row.customerId,
    status: row.status as CreditNoteStatus,
    origin: row.origin as CreditNoteOrigin,
    currency: row.currency,
    reason: row.reason as CreditNoteReason,
    ...(row.memo !== null ? { memo: row.memo } : {}),
    lines: row.lines.map(creditNoteLineObject),
    total_amount: row.totalAmount,
    tax_amount: row.taxAmount,
    pre_payment_amount: row.prePaymentAmount,
    post_payment_amount: row.totalAmount - row.prePaymentAmount,
    refund_amount: row.refundAmount,
    balance_credit_amount: row.balanceCreditAmount,
    out_of_band_amount: row.outOfBandAmount,
    ...(row.refundId ? { refund_id: row.refundId } : {}),
    ...(row.balanceTransactionId ? { balance_transaction_id: row.balanceTransactionId } : {}),
    ...(pdfUrl ? { pdf_url: pdfUrl } : {}),
    ...(row.voidedAt ? { voided_at: formatDateTime(row.voidedAt) } : {}),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}
