import PDFDocument from 'pdfkit';
import { formatMinorUnits, formatUtc, printable } from './format';
import type { CustomerSnapshot, InvoiceDocument } from './invoice-document';

const MARGIN = 50;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const SMALL = 8;
const BODY = 10;

interface Column {
  header: string;
  width: number;
  align: 'left' | 'right';
}

/**
 * An invoice as a PDF document, returned as the readable stream pdfkit writes into, so the
 * caller pipes it to the reply and pages leave as they are finished.
 *
 * Uncompressed: an invoice is a few kilobytes of text either way, and tests (and anyone
 * debugging) can read the figures in the file. The built-in Helvetica covers Windows-1252
 * only; docs/invoice-pdf.md says what that means for other scripts.
 */
export function renderInvoicePdf(invoice: InvoiceDocument): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    compress: false,
    info: { Title: `Invoice ${invoice.id}`, Author: invoice.accountName },
  });
  const money = (amount: number) => formatMinorUnits(amount, invoice.currency);
  const contentWidth = doc.page.width - 2 * MARGIN;

  doc.font(BOLD).fontSize(20).text(printable(invoice.accountName));
  doc.moveDown(0.5).font(FONT).fontSize(14).text(`Invoice ${invoice.id}`);
  doc.moveDown(0.5);

  const facts: Array<[string, string | null]> = [
    ['Status', invoice.status],
    ['Issued', invoice.finalizedAt && formatUtc(invoice.finalizedAt)],
    ['Due', invoice.dueAt && formatUtc(invoice.dueAt)],
    ['Paid', invoice.paidAt && formatUtc(invoice.paidAt)],
    ['Voided', invoice.voidedAt && formatUtc(invoice.voidedAt)],
    ['Created', formatUtc(invoice.createdAt)],
    ['Reference', invoice.merchantReference && printable(invoice.merchantReference)],
    ['Currency', invoice.currency],
  ];
  doc.fontSize(BODY);
  for (const [label, value] of facts) {
    if (value) doc.font(BOLD).text(`${label}: `, { continued: true }).font(FONT).text(value);
  }

  doc.moveDown().font(BOLD).text('Bill to');
  doc.font(FONT);
  for (const line of customerLines(invoice.customer)) doc.text(line);

  doc.moveDown();
  const columns: Column[] = [
    { header: 'Description', width: 0, align: 'left' },
    { header: 'Qty', width: 35, align: 'right' },
    { header: 'Unit amount', width: 65, align: 'right' },
    { header: 'Discount', width: 55, align: 'right' },
    { header: 'Tax mode / rate', width: 75, align: 'right' },
    { header: 'Tax', width: 55, align: 'right' },
    { header: 'Line total', width: 65, align: 'right' },
  ];
  columns[0]!.width = contentWidth - columns.slice(1).reduce((sum, column) => sum + column.width, 0);
  const drawRow = (cells: string[], font: string) => {
    doc.font(font).fontSize(SMALL);
    const height = Math.max(...cells.map((cell, i) => doc.heightOfString(cell, { width: columns[i]!.width - 4 })));
    if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
    const top = doc.y;
    let x = MARGIN;
    cells.forEach((cell, i) => {
      const column = columns[i]!;
      doc.text(cell, x + 2, top, { width: column.width - 4, align: column.align });
      x += column.width;
    });
    doc.x = MARGIN;
    doc.y = top + height + 4;
  };
  drawRow(columns.map((column) => column.header), BOLD);
  doc.moveTo(MARGIN, doc.y - 2).lineTo(MARGIN + contentWidth, doc.y - 2).stroke();
  for (const line of invoice.lines) {
    drawRow(
      [
        printable(line.description ?? ''),
        String(line.quantity),
        money(line.unitAmount),
        money(line.discount),
        line.taxMode ? `${line.taxMode} ${line.taxRate ?? '0'}%` : 'none',
        money(line.tax),
        money(line.total),
      ],
      FONT,
    );
  }

  doc.moveDown().fontSize(BODY);
  const totals: Array<[string, number]> = [
    ['Subtotal', invoice.subtotal],
    ['Discount', invoice.discount],
    ['Tax', invoice.tax],
    ['Total', invoice.total],
    ['Paid', invoice.amountPaid],
    ['Refunded', invoice.amountRefunded],
    ['Amount due', invoice.amountDue],
  ];
  for (const [label, amount] of totals) {
    const top = doc.y;
    const font = label === 'Total' || label === 'Amount due' ? BOLD : FONT;
    doc.font(font).text(label, MARGIN, top, { width: contentWidth - 130, align: 'right' });
    doc.text(`${money(amount)} ${invoice.currency}`, MARGIN + contentWidth - 120, top, { width: 120, align: 'right' });
    doc.x = MARGIN;
  }

  if (invoice.notes) {
    doc.moveDown().font(BOLD).text('Notes');
    doc.font(FONT).text(printable(invoice.notes));
  }
  doc.moveDown().font(FONT).fontSize(SMALL).text(`Amounts in ${invoice.currency}. Times in UTC.`);
  doc.end();
  return doc;
}

function customerLines(customer: CustomerSnapshot): string[] {
  const name = [customer.first_name, customer.last_name].filter(Boolean).join(' ');
  const address = customer.address ?? {};
  const cityLine = [address.postal_code, address.city].filter(Boolean).join(' ');
  const lines = [name, customer.email, customer.phone, address.line1, address.line2, cityLine, address.state, address.country];
  return [...lines.filter((line): line is string => Boolean(line)).map(printable), `Customer ${customer.id}`];
}
