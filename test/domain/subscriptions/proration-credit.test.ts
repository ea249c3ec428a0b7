import { creditToRefund } from '../../../domain/subscriptions/proration';

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
