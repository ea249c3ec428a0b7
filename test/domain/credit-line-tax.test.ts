import { computeInvoiceAmounts, lineTax } from '../../domain/invoice-amounts';

/** docs/customer-balance.md, "Proration credits": a credit line is taxed as the mirror of its magnitude. */
describe('tax of a credit line', () => {
  it('is the negation of the tax of its magnitude, half-up rounding included', () => {
    // 10 % of 5 is 0.5: rounded half up to 1, so the credit of 5 carries −1, not 0.
    expect(lineTax(-5, { mode: 'EXCLUSIVE', rate: 10 })).toBe(-1);
    expect(lineTax(5, { mode: 'EXCLUSIVE', rate: 10 })).toBe(1);
    for (const taxable of [1, 5, 15, 105, 1_999, 12_345]) {
      for (const tax of [{ mode: 'EXCLUSIVE', rate: 19 }, { mode: 'INCLUSIVE', rate: 7.5 }, { mode: 'EXCLUSIVE', rate: 10 }] as const) {
        expect(lineTax(-taxable, tax)).toBe(-lineTax(taxable, tax));
      }
    }
  });

  it('makes a credit invoice the exact negative of the same invoice with positive lines', () => {
    const lines = [
      { unitAmount: 305, quantity: 1, tax: { mode: 'EXCLUSIVE' as const, rate: 19 } },
      { unitAmount: 45, quantity: 1, tax: { mode: 'INCLUSIVE' as const, rate: 7.5 } },
    ];
    const positive = computeInvoiceAmounts(lines, []);
    const negative = computeInvoiceAmounts(lines.map((line) => ({ ...line, unitAmount: -line.unitAmount })), []);
    expect(negative.total).toBe(-positive.total);
    expect(negative.amountDetails).toEqual({ subtotal: -positive.amountDetails.subtotal, discount: 0, taxable: -positive.amountDetails.taxable, tax: -positive.amountDetails.tax });
  });
});
