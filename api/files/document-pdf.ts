import { formatMinorUnits, printable } from './format';
import type { CustomerSnapshot } from './invoice-document';

const MARGIN = 50;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const SMALL = 8;
const BODY = 10;

export interface Column {
  header: string;
  /** 0 for the one column that takes the width the others leave. */
  width: number;
  align: 'left' | 'right';
}

/** A billing document as its PDF lays it out: invoices and credit notes alike (docs/invoice-pdf.md). */
export interface DocumentLayout {
  /** "Invoice inv_…", "Credit note 42". */
  title: string;
  accountName: string;
  currency: string;
  /** Label and value; a null value is left out. */
  facts: Array<[string, string | null]>;
  customer: CustomerSnapshot;
  columns: Column[];
  rows: string[][];
  /** Label, minor units, and whether it is printed bold. */
  totals: Array<[string, number, boolean?]>;
  notes: string | null;
}

/**
 * A document as a PDF, returned as the readable stream pdfkit writes into, so the caller pipes
 * it to the reply and pages leave as they are finished.
 *
 * Uncompressed: a document is a few kilobytes of text either way, and tests (and anyone
 * debugging) can read the figures in the file. The built-in Helvetica covers Windows-1252
 * only; docs/invoice-pdf.md says what that means for other scripts.
 */
export function renderDocumentPdf(layout: DocumentLayout): PDFKit.PDFDocument {
  // Loaded at the first document: pdfkit costs about 180 ms of CPU to load, which every API start
  // (and each test file) paid whether or not it rendered one.
  const PDFDocument = require('pdfkit') as typeof import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, compress: false, info: { Title: layout.title, Author: layout.accountName } });
  const money = (amount: number) => formatMinorUnits(amount, layout.currency);
  const contentWidth = doc.page.width - 2 * MARGIN;

  doc.font(BOLD).fontSize(20).text(printable(layout.accountName));
  doc.moveDown(0.5).font(FONT).fontSize(14).text(layout.title);
  doc.moveDown(0.5);
  doc.fontSize(BODY);
  for (const [label, value] of layout.facts) {
    if (value) doc.font(BOLD).text(`${label}: `, { continued: true }).font(FONT).text(value);
  }

  doc.moveDown().font(BOLD).text('Bill to');
  doc.font(FONT);
  for (const line of customerLines(layout.customer)) doc.text(line);

  doc.moveDown();
  const columns = layout.columns.map((column) => ({ ...column }));
  const fill = columns.find((column) => column.width === 0)!;
  fill.width = contentWidth - columns.reduce((sum, column) => sum + column.width, 0);
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
  for (const row of layout.rows) drawRow(row, FONT);

  doc.moveDown().fontSize(BODY);
  for (const [label, amount, bold] of layout.totals) {
    const top = doc.y;
    doc.font(bold ? BOLD : FONT).text(label, MARGIN, top, { width: contentWidth - 130, align: 'right' });
    doc.text(`${money(amount)} ${layout.currency}`, MARGIN + contentWidth - 120, top, { width: 120, align: 'right' });
    doc.x = MARGIN;
  }

  if (layout.notes) {
    doc.moveDown().font(BOLD).text('Notes');
    doc.font(FONT).text(printable(layout.notes));
  }
  doc.moveDown().font(FONT).fontSize(SMALL).text(`Amounts in ${layout.currency}. Times in UTC.`);
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
