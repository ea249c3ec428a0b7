import {
  allocateProportionally,
  computeInvoiceAmounts,
  invoiceDiscount,
  lineTax,
  scaleDecimal,
  type DiscountInput,
  type LineInput,
} from '../../domain/invoice-amounts';

describe('scaleDecimal', () => {
  it('scales decimals with up to four places by 10^4 exactly', () => {
    expect(scaleDecimal(7.5)).toBe(75_000n);
    expect(scaleDecimal('7.5000')).toBe(75_000n);
    expect(scaleDecimal(0.0001)).toBe(1n);
    expect(scaleDecimal(100)).toBe(1_000_000n);
    expect(scaleDecimal(12.3456)).toBe(123_456n);
    expect(scaleDecimal('19.')).toBe(190_000n);
  });

  it.each([1.23456, -1, 1e-7, Number.NaN, '1,5', ''])('refuses %p', (value) => {
    expect(() => scaleDecimal(value)).toThrow(RangeError);
  });
});

describe('tax rounding (half up on integers)', () => {
  it('rounds EXCLUSIVE tax half up', () => {
    // 7.5 % of 1999 = 149.925 → 150; of 1990 = 149.25 → 149; of 10 = 0.75 → 1; of 2 = 0.15 → 0
    expect(lineTax(1999, { mode: 'EXCLUSIVE', rate: 7.5 })).toBe(150);
    expect(lineTax(1990, { mode: 'EXCLUSIVE', rate: 7.5 })).toBe(149);
    expect(lineTax(10, { mode: 'EXCLUSIVE', rate: 7.5 })).toBe(1);
    expect(lineTax(2, { mode: 'EXCLUSIVE', rate: 7.5 })).toBe(0);
    // exactly half: 5 % of 10 = 0.5 → 1
    expect(lineTax(10, { mode: 'EXCLUSIVE', rate: 5 })).toBe(1);
  });

  it('extracts INCLUSIVE tax as taxable − round half up(taxable × 100 / (100 + rate))', () => {
    // 1190 incl. 19 %: net 1000, tax 190. 1000 incl. 7.5 %: net 930.232… → 930, tax 70.
    expect(lineTax(1190, { mode: 'INCLUSIVE', rate: 19 })).toBe(190);
    expect(lineTax(1000, { mode: 'INCLUSIVE', rate: 7.5 })).toBe(70);
    expect(lineTax(1, { mode: 'INCLUSIVE', rate: 19 })).toBe(0);
  });

  it('charges no tax at rate 0 or without tax', () => {
    expect(lineTax(12345, { mode: 'EXCLUSIVE', rate: 0 })).toBe(0);
    expect(lineTax(12345, { mode: 'INCLUSIVE', rate: 0 })).toBe(0);
    expect(lineTax(12345, null)).toBe(0);
  });
});

describe('discounts', () => {
  it('applies percentages first on the running amount, then amounts, in the order given', () => {
    // 10000 − 10 % = 9000; − 12.5 % of 9000 = 7875; − 500 = 7375. Discount 2625.
    const stacked: DiscountInput[] = [
      { type: 'AMOUNT', value: 500 },
      { type: 'PERCENTAGE', value: 10 },
      { type: 'PERCENTAGE', value: 12.5 },
    ];
    expect(invoiceDiscount(10_000, stacked)).toBe(2625);
  });

  it('rounds a percentage half up: 33.3333 % of 1001 = 333.6663… → 334', () => {
    expect(invoiceDiscount(1001, [{ type: 'PERCENTAGE', value: 33.3333 }])).toBe(334);
  });

  it('never takes more than the subtotal', () => {
    expect(invoiceDiscount(999, [{ type: 'AMOUNT', value: 5000 }])).toBe(999);
    expect(invoiceDiscount(999, [{ type: 'PERCENTAGE', value: 100 }, { type: 'AMOUNT', value: 1 }])).toBe(999);
    expect(invoiceDiscount(0, [{ type: 'PERCENTAGE', value: 50 }])).toBe(0);
  });
});

describe('allocateProportionally (largest remainder)', () => {
  it('gives the leftover units to the largest remainders, earlier line first on ties', () => {
    expect(allocateProportionally(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(allocateProportionally(100, [333, 333, 334])).toEqual([33, 33, 34]);
    expect(allocateProportionally(7, [0, 5, 0])).toEqual([0, 7, 0]);
    expect(allocateProportionally(5, [0, 0])).toEqual([0, 0]);
  });
});

describe('computeInvoiceAmounts', () => {
  it('works a mixed invoice through: odd quantities, 7.5 % exclusive, 19 % inclusive, stacked coupons', () => {
    const amounts = computeInvoiceAmounts(
      [
        { unitAmount: 333, quantity: 3, tax: { mode: 'EXCLUSIVE', rate: 7.5 } },
        { unitAmount: 1190, quantity: 7, tax: { mode: 'INCLUSIVE', rate: 19 } },
        { unitAmount: 1, quantity: 1 },
      ],
      [
        { type: 'PERCENTAGE', value: 10 },
        { type: 'AMOUNT', value: 101 },
      ],
    );
    // subtotals 999, 8330, 1 = 9330; − 10 % (933) = 8397; − 101 = 8296: discount 1034.
    // shares: 1034 × 999/9330 = 110.71…, × 8330/9330 = 923.17…, × 1/9330 = 0.11… → 110, 923, 0 (+1 to the first: .71 is largest)
    expect(amounts.lines.map((l) => l.discount)).toEqual([111, 923, 0]);
    // taxable 888 → 7.5 % = 66.6 → 67; 7407 incl. 19 % → net 6224.369… → 6224, tax 1183.
    expect(amounts.lines).toEqual([
      { subtotal: 999, discount: 111, taxable: 888, tax: 67, total: 955 },
      { subtotal: 8330, discount: 923, taxable: 7407, tax: 1183, total: 7407 },
      { subtotal: 1, discount: 0, taxable: 1, tax: 0, total: 1 },
    ]);
    expect(amounts.amountDetails).toEqual({ subtotal: 9330, discount: 1034, taxable: 8296, tax: 1250 });
    expect(amounts.total).toBe(8363);
  });

  it('takes a discount larger than the subtotal down to zero on every line', () => {
    const amounts = computeInvoiceAmounts(
      [
        { unitAmount: 500, quantity: 3, tax: { mode: 'EXCLUSIVE', rate: 20 } },
        { unitAmount: 250, quantity: 1 },
      ],
      [{ type: 'AMOUNT', value: 1_000_000 }],
    );
    expect(amounts.lines.map((l) => [l.discount, l.taxable, l.tax])).toEqual([
      [1500, 0, 0],
      [250, 0, 0],
    ]);
    expect(amounts.total).toBe(0);
  });

  it('handles an empty invoice', () => {
    expect(computeInvoiceAmounts([], [{ type: 'PERCENTAGE', value: 10 }])).toEqual({
      lines: [],
      amountDetails: { subtotal: 0, discount: 0, taxable: 0, tax: 0 },
      total: 0,
    });
  });
});

/** A small deterministic PRNG (mulberry32), so a failing case can be replayed from its seed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(values: readonly T[]) => values[int(0, values.length - 1)]!;
  return { int, pick };
}

const RATES = [0, 5, 7.5, 8.875, 19, 20, 21, 25.5, 0.0001, 100];

function randomCase(seed: number): { lines: LineInput[]; discounts: DiscountInput[] } {
  const r = random(seed);
  const lines = Array.from({ length: r.int(1, 100) }, (): LineInput => {
    const taxed = r.int(0, 2);
    return {
      unitAmount: r.pick([0, 1, 3, 99, 333, 1999, r.int(0, 1_000_000)]),
      quantity: r.pick([1, 3, 7, 13, r.int(1, 500)]),
      tax: taxed === 0 ? null : { mode: taxed === 1 ? 'EXCLUSIVE' : 'INCLUSIVE', rate: r.pick(RATES) },
    };
  });
  const discounts = Array.from({ length: r.int(0, 4) }, (): DiscountInput =>
    r.int(0, 1) === 0
      ? { type: 'PERCENTAGE', value: r.pick([0.0001, 5, 10, 12.3456, 33.3333, 50, 99.9999, 100]) }
      : { type: 'AMOUNT', value: r.pick([1, 99, 1000, r.int(1, 100_000_000)]) },
  );
  return { lines, discounts };
}

describe('invariants over 2,000 random invoices', () => {
  it('lines always sum to the invoice, and every rounding is within half a unit of the exact value', () => {
    for (let seed = 1; seed <= 2000; seed += 1) {
      const { lines, discounts } = randomCase(seed);
      const amounts = computeInvoiceAmounts(lines, discounts);
      const sum = (pick: (l: (typeof amounts.lines)[number]) => number) => amounts.lines.reduce((s, l) => s + pick(l), 0);
      const context = `seed ${seed}`;

      expect({ context, details: amounts.amountDetails }).toEqual({
        context,
        details: { subtotal: sum((l) => l.subtotal), discount: sum((l) => l.discount), taxable: sum((l) => l.taxable), tax: sum((l) => l.tax) },
      });
      expect({ context, total: amounts.total }).toEqual({ context, total: sum((l) => l.total) });
      expect({ context, discount: amounts.amountDetails.discount }).toEqual({
        context,
        discount: invoiceDiscount(amounts.amountDetails.subtotal, discounts),
      });

      // Each line's rules are collected and asserted once per invoice: 100,000 lines through
      // jest's expect took 70–80 s, a plain comparison takes milliseconds.
      const subtotal = BigInt(amounts.amountDetails.subtotal);
      const discount = BigInt(amounts.amountDetails.discount);
      const broken: string[] = [];
      const rule = (index: number, name: string, holds: boolean) => {
        if (!holds) broken.push(`line ${index}: ${name} ${JSON.stringify(amounts.lines[index])}`);
      };
      amounts.lines.forEach((line, index) => {
        const input = lines[index]!;
        rule(index, 'subtotal = unit amount × quantity', line.subtotal === input.unitAmount * input.quantity);
        rule(index, '0 ≤ discount ≤ subtotal', line.discount >= 0 && line.discount <= line.subtotal);
        rule(index, 'taxable = subtotal − discount', line.taxable === line.subtotal - line.discount);
        // Largest remainder: each share is the exact proportional share rounded down or up.
        if (subtotal > 0n) {
          const exactTimesSubtotal = discount * BigInt(line.subtotal);
          const share = BigInt(line.discount) * subtotal;
          rule(index, 'discount share within one unit of exact', share >= exactTimesSubtotal - subtotal && share <= exactTimesSubtotal + subtotal);
        }
        // Half up: exact − ½ < rounded ≤ exact + ½, compared in integers.
        if (input.tax) {
          const rate = scaleDecimal(input.tax.rate);
          const taxable = BigInt(line.taxable);
          const tax = BigInt(line.tax);
          if (input.tax.mode === 'EXCLUSIVE') {
            const denominator = 1_000_000n;
            const error = tax * denominator - taxable * rate;
            rule(index, 'exclusive tax rounded half up', 2n * error > -denominator && 2n * error <= denominator);
            rule(index, 'total = taxable + tax', line.total === line.taxable + line.tax);
          } else {
            const denominator = 1_000_000n + rate;
            const net = taxable - tax;
            const error = net * denominator - taxable * 1_000_000n;
            rule(index, 'inclusive tax rounded half up', 2n * error > -denominator && 2n * error <= denominator);
            rule(index, 'total = taxable', line.total === line.taxable);
          }
        } else {
          rule(index, 'no tax', line.tax === 0);
        }
      });
      expect({ context, broken }).toEqual({ context, broken: [] });
    }
  });
});
