import { prorate } from '../../domain/billing-periods';
import { computeInvoiceAmounts, lineTax } from '../../domain/invoice-amounts';
import { divideHalfUp } from '../../domain/rounding';

describe('divideHalfUp', () => {
  it('rounds an exact half up and anything below it down, beyond 2^53', () => {
    expect(divideHalfUp(5n, 2n)).toBe(3n);
    expect(divideHalfUp(7n, 3n)).toBe(2n);
    expect(divideHalfUp(8n, 3n)).toBe(3n);
    expect(divideHalfUp(0n, 7n)).toBe(0n);
    expect(divideHalfUp(2n ** 60n + 1n, 2n)).toBe(2n ** 59n + 1n);
  });

  it('is the rounding of proration and of invoice tax', () => {
    // 857 over half of a 2-second whole: 428.5 → 429.
    expect(prorate(857, 1_000, 2_000)).toBe(429);
    // 333 at 7.5 % = 24.975 → 25; 10 at 5 % = 0.5 → 1.
    expect(lineTax(333, { mode: 'EXCLUSIVE', rate: 7.5 })).toBe(25);
    expect(lineTax(10, { mode: 'EXCLUSIVE', rate: 5 })).toBe(1);
    // A 12.5 % coupon on 100 is 12.5 → 13 off.
    expect(computeInvoiceAmounts([{ unitAmount: 100, quantity: 1 }], [{ type: 'PERCENTAGE', value: 12.5 }]).amountDetails.discount).toBe(13);
  });
});
