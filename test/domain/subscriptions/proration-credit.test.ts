import { capCreditParts, creditPartsTotal, creditToRefund } from '../../../domain/subscriptions/proration';

const VAT = { categoryId: null, mode: 'EXCLUSIVE', rate: 20 } as const;
const INCLUDED = { categoryId: null, mode: 'INCLUSIVE', rate: 20 } as const;

describe('creditToRefund', () => {
  it('gives a list-price credit back as it is when the invoice had no coupon', () => {
    expect(creditToRefund({ amount: 116, description: '' }, { subtotal: 300, discount: 0 })).toBe(116);
  });

  it('reduces it as the coupons reduced the invoice, rounding half up once', () => {
    // 857 × 1500 / 3000 = 428.5
    expect(creditToRefund({ amount: 857, description: '' }, { subtotal: 3_000, discount: 1_500 })).toBe(429);
    expect(creditToRefund({ amount: 857, description: '' }, { subtotal: 3_000, discount: 3_000 })).toBe(0);
  });

  it('adds the tax an EXCLUSIVE part was charged on its discounted amount; an INCLUSIVE part’s is inside', () => {
    const credit = { amount: 1_100, description: '', parts: [{ amount: 600, tax: VAT }, { amount: 500, tax: INCLUDED }] };
    // 600 → 300 after a 50 % coupon, + 60 tax; 500 → 250.
    expect(creditToRefund(credit, { subtotal: 2_000, discount: 1_000 })).toBe(300 + 60 + 250);
  });

  it('gives nothing against an invoice that billed nothing, and stays exact far beyond 2^53 intermediates', () => {
    expect(creditToRefund({ amount: 500, description: '' }, { subtotal: 0, discount: 0 })).toBe(0);
    expect(creditToRefund({ amount: 2_147_483_647, description: '' }, { subtotal: 2_147_483_647, discount: 1 })).toBe(2_147_483_646);
  });
});

describe('capCreditParts', () => {
  it('leaves parts that fit the limit as they are', () => {
    const parts = [{ amount: 300, tax: VAT }];
    expect(capCreditParts(parts, 360)).toEqual(parts);
    expect(capCreditParts(parts, 10_000)).toEqual(parts);
  });

  it('cuts an untaxed part to the limit itself', () => {
    expect(capCreditParts([{ amount: 300, tax: null }], 200)).toEqual([{ amount: 200, tax: null }]);
  });

  it('cuts an EXCLUSIVE part so that it and its tax come to the limit, or just below when the rounding skips it', () => {
    // 167 + 33 (33.4) = 200; 168 + 34 (33.6) = 202.
    expect(capCreditParts([{ amount: 300, tax: VAT }], 200)).toEqual([{ amount: 167, tax: VAT }]);
    expect(capCreditParts([{ amount: 300, tax: VAT }], 201)).toEqual([{ amount: 167, tax: VAT }]);
    expect(creditPartsTotal([{ amount: 167, tax: VAT }])).toBe(200);
  });

  it('cuts an INCLUSIVE part to the limit: its tax is inside it', () => {
    expect(capCreditParts([{ amount: 300, tax: INCLUDED }], 200)).toEqual([{ amount: 200, tax: INCLUDED }]);
  });

  it('spreads the cut over several parts in proportion, then lowers them until the taxed total fits', () => {
    // 600 + 120 tax, 500, 100: 1,320 in all. 910 spread is 455, 379, 76: 1,001 with its tax; 909 is 454, 379, 76: 1,000.
    const parts = [{ amount: 600, tax: VAT }, { amount: 500, tax: INCLUDED }, { amount: 100, tax: null }];
    expect(creditPartsTotal(parts)).toBe(1_320);
    const capped = capCreditParts(parts, 1_000);
    expect(capped).toEqual([{ amount: 454, tax: VAT }, { amount: 379, tax: INCLUDED }, { amount: 76, tax: null }]);
    expect(creditPartsTotal(capped)).toBe(1_000);
  });

  it('leaves nothing when nothing is left to give back', () => {
    expect(capCreditParts([{ amount: 300, tax: VAT }, { amount: 50, tax: null }], 0).map((part) => part.amount)).toEqual([0, 0]);
  });
});
