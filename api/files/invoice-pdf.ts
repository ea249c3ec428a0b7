import { renderDocumentPdf } from './document-pdf';
import { formatMinorUnits, formatUtc, printable } from './format';
import type { InvoiceDocument } from './invoice-document';

/** An invoice as a PDF (docs/invoice-pdf.md), laid out by renderDocumentPdf. */
export function renderInvoicePdf(invoice: InvoiceDocument): PDFKit.PDFDocument {
  const money = (amount: number) => formatMinorUnits(amount, invoice.currency);
  return renderDocumentPdf({
    title: `Invoice ${invoice.id}`,
    accountName: invoice.accountName,
    currency: invoice.currency,
    facts: [
      ['Status', invoice.status],
      ['Issued', invoice.finalizedAt && formatUtc(invoice.finalizedAt)],
      ['Due', invoice.dueAt && formatUtc(invoice.dueAt)],
      ['Paid', invoice.paidAt && formatUtc(invoice.paidAt)],
      ['Voided', invoice.voidedAt && formatUtc(invoice.voidedAt)],
      ['Created', formatUtc(invoice.createdAt)],
      ['Reference', invoice.merchantReference && printable(invoice.merchantReference)],
      ['Currency', invoice.currency],
    ],
    customer: invoice.customer,
    columns: [
      { header: 'Description', width: 0, align: 'left' },
      { header: 'Qty', width: 35, align: 'right' },
      { header: 'Unit amount', width: 65, align: 'right' },
      { header: 'Discount', width: 55, align: 'right' },
      { header: 'Tax mode / rate', width: 75, align: 'right' },
      { header: 'Tax', width: 55, align: 'right' },
      { header: 'Line total', width: 65, align: 'right' },
    ],
    rows: invoice.lines.map((line) => [
      printable(line.description ?? ''),
      String(line.quantity),
      money(line.unitAmount),
      money(line.discount),
      line.taxMode ? `${line.taxMode} ${line.taxRate ?? '0'}%` : 'none',
      money(line.tax),
      money(line.total),
    ]),
    totals: [
      ['Subtotal', invoice.subtotal],
      ['Discount', invoice.discount],
      ['Tax', invoice.tax],
      ['Total', invoice.total, true],
      ['Paid', invoice.amountPaid],
      ['Refunded', invoice.amountRefunded],
      ['Amount due', invoice.amountDue, true],
    ],
    notes: invoice.notes,
  });
}
