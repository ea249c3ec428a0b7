import { formatMinorUnits, formatUtc, printable } from '../files/format';
import { renderDocumentPdf } from '../files/document-pdf';
import type { CustomerSnapshot } from '../files/invoice-document';
import type { Database } from '../../prisma/client';

/** What a credit note's PDF shows, read from the database in one place. */
export interface CreditNoteDocument {
  id: string;
  number: number;
  invoiceId: string;
  accountName: string;
  status: string;
  reason: string;
  memo: string | null;
  currency: string;
  createdAt: Date;
  voidedAt: Date | null;
  customer: CustomerSnapshot;
  lines: Array<{ description: string | null; quantity: number | null; taxMode: string | null; taxRate: string | null; taxable: number; tax: number; total: number }>;
  tax: number;
  total: number;
  prePayment: number;
  refund: number;
  balanceCredit: number;
  outOfBand: number;
}

/** The credit note as its PDF shows it, with the customer as its invoice froze them; null when there is none. */
export async function loadCreditNoteDocument(db: Database, id: string): Promise<CreditNoteDocument | null> {
  const note = await db.creditNote.findUnique({ where: { id }, include: { lines: { orderBy: { position: 'asc' } } } });
  if (!note) return null;
  const [account, invoice] = await Promise.all([
    db.account.findUniqueOrThrow({ where: { id: note.accountId }, select: { name: true } }),
    db.invoice.findUniqueOrThrow({ where: { id: note.invoiceId }, select: { customerSnapshot: true } }),
  ]);
  return {
    id: note.id,
    number: note.number,
    invoiceId: note.invoiceId,
    accountName: account.name,
    status: note.status,
    reason: note.reason,
    memo: note.memo,
    currency: note.currency,
    createdAt: note.createdAt,
    voidedAt: note.voidedAt,
    customer: (invoice.customerSnapshot as unknown as CustomerSnapshot | null) ?? { id: note.customerId },
    lines: note.lines.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      taxMode: line.taxMode,
      taxRate: line.taxRate?.toString() ?? null,
      taxable: line.taxable,
      tax: line.tax,
      total: line.total,
    })),
    tax: note.taxAmount,
    total: note.totalAmount,
    prePayment: note.prePaymentAmount,
    refund: note.refundAmount,
    balanceCredit: note.balanceCreditAmount,
    outOfBand: note.outOfBandAmount,
  };
}

/** A credit note as a PDF, laid out as invoices are (docs/credit-notes.md, "PDF"). */
export function renderCreditNotePdf(note: CreditNoteDocument): PDFKit.PDFDocument {
  const money = (amount: number) => formatMinorUnits(amount, note.currency);
  return renderDocumentPdf({
    title: `Credit note ${note.number}`,
    accountName: note.accountName,
    currency: note.currency,
    facts: [
      ['Credit note', note.id],
      ['Invoice', note.invoiceId],
      ['Status', note.status],
      ['Reason', note.reason],
      ['Issued', formatUtc(note.createdAt)],
      ['Voided', note.voidedAt && formatUtc(note.voidedAt)],
      ['Currency', note.currency],
    ],
    customer: note.customer,
    columns: [
      { header: 'Description', width: 0, align: 'left' },
      { header: 'Qty', width: 35, align: 'right' },
      { header: 'Tax mode / rate', width: 75, align: 'right' },
      { header: 'Amount', width: 65, align: 'right' },
      { header: 'Tax', width: 55, align: 'right' },
      { header: 'Line total', width: 65, align: 'right' },
    ],
    rows: note.lines.map((line) => [
      printable(line.description ?? ''),
      line.quantity === null ? '' : String(line.quantity),
      line.taxMode ? `${line.taxMode} ${line.taxRate ?? '0'}%` : 'none',
      money(line.taxable),
      money(line.tax),
      money(line.total),
    ]),
    totals: [
      ['Tax', note.tax],
      ['Total credited', note.total, true],
      ['Off the amount due', note.prePayment],
      ['Refunded', note.refund],
      ['Credited to balance', note.balanceCredit],
      ['Out of band', note.outOfBand],
    ],
    notes: note.memo,
  });
}
