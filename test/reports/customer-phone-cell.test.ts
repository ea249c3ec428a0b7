import { INVOICE_REPORT_COLUMNS, invoiceReportCells, type InvoiceReportSource } from '../../domain/report-columns';

/**
 * A phone is kept as written when it is no number (section 2.2 gives it no format), so an
 * INVOICES report escapes one that a spreadsheet would run as a formula; E.164 stays as stored.
 */
function phoneCellOf(phone: string): unknown {
  const source: InvoiceReportSource = {
    id: 'inv_1', status: 'OPEN', currency: 'EUR', totalAmount: 100, notes: null, merchantReference: null, pdfUrl: null,
    createdAt: '2026-01-01T00:00:00.000000Z', updatedAt: '2026-01-01T00:00:00.000000Z', dueAt: null,
    customer: { id: 'cust_1', phone, tax: { taxability: 'TAXABLE' } },
    amountDetails: { subtotal: 100, discount: 0 }, discounts: [],
  };
  return invoiceReportCells(source)[INVOICE_REPORT_COLUMNS.indexOf('customer_phone')];
}

describe('customer_phone in an INVOICES report', () => {
  it('escapes a phone kept as written that would start a formula', () => {
    expect(phoneCellOf('=HYPERLINK("http://x.example","call")')).toBe(`'=HYPERLINK("http://x.example","call")`);
    expect(phoneCellOf('+1 555 CALL NOW')).toBe(`'+1 555 CALL NOW`);
    expect(phoneCellOf('030 1234567')).toBe('030 1234567');
  });

  it('writes an E.164 phone as stored', () => {
    expect(phoneCellOf('+4930123456')).toBe('+4930123456');
  });
});
