import type { TimeUnit } from '../../../domain/billing-periods';
import { annualFromMonthly, countsForMrr, monthlyAmount, recurringCycleAmount, type MrrSubscription } from '../../../domain/metrics/mrr';

const monthly = { value: 1, unit: 'MONTH' } as const;
const recurring = (amount: number, quantity = 1) => ({ billingType: 'RECURRING', amount, quantity });

describe('the MRR rule (docs/metrics.md, "The MRR rule")', () => {
  it('normalises each billing period to a month of 30.4375 days, rounded once half up', () => {
    const of = (amount: number, value: number, unit: TimeUnit) =>
      monthlyAmount({ lines: [recurring(amount)], discounts: [], billingPeriod: { value, unit } });
    expect(of(1000, 1, 'MONTH')).toBe(1000);
    expect(of(9999, 1, 'YEAR')).toBe(833); // 833.25
    expect(of(9990, 1, 'YEAR')).toBe(833); // 832.5 → 833, half up
    expect(of(3000, 1, 'QUARTER')).toBe(1000);
    expect(of(1001, 2, 'MONTH')).toBe(501); // 500.5
    expect(of(700, 1, 'WEEK')).toBe(3044); // 700 × 487 / 112 = 3043.75
    expect(of(100, 1, 'DAY')).toBe(3044); // 3043.75
    expect(of(100, 2, 'WEEK')).toBe(217); // 100 × 487 / 224 = 217.41…
    expect(of(10, 1, 'HOUR')).toBe(7305); // 730.5 hours a month
    expect(of(1, 1, 'MINUTE')).toBe(43830);
    expect(of(1200, 6, 'YEAR')).toBe(17); // 16.66…
  });

  it('multiplies by quantity and leaves ONE_TIME and USAGE lines out', () => {
    const subscription: MrrSubscription = {
      lines: [recurring(1000, 3), { billingType: 'ONE_TIME', amount: 5000, quantity: 1 }, { billingType: 'USAGE', amount: 0, quantity: 1 }, recurring(250, 2)],
      discounts: [],
      billingPeriod: monthly,
    };
    expect(recurringCycleAmount(subscription)).toBe(3500);
    expect(monthlyAmount(subscription)).toBe(3500);
  });

  it('applies coupons as an invoice does: percentages first, each rounded half up, then amounts, never below zero', () => {
    const lines = [recurring(1000, 3)];
    expect(monthlyAmount({ lines, discounts: [{ type: 'PERCENTAGE', value: 15 }], billingPeriod: monthly })).toBe(2550);
    // 12.5 % of 999 = 124.875 → 125 off; 999 − 125 = 874; then 100 off = 774.
    expect(monthlyAmount({ lines: [recurring(999)], discounts: [{ type: 'AMOUNT', value: 100 }, { type: 'PERCENTAGE', value: '12.5' }], billingPeriod: monthly })).toBe(774);
    // 10 % then 10 % on what is left: 1000 → 900 → 810.
    expect(monthlyAmount({ lines: [recurring(1000)], discounts: [{ type: 'PERCENTAGE', value: 10 }, { type: 'PERCENTAGE', value: 10 }], billingPeriod: monthly })).toBe(810);
    expect(monthlyAmount({ lines: [recurring(500)], discounts: [{ type: 'AMOUNT', value: 800 }], billingPeriod: monthly })).toBe(0);
    // The discounted yearly cycle is normalised, not the list price: 12000 − 25 % = 9000 → 750 a month.
    expect(monthlyAmount({ lines: [recurring(12000)], discounts: [{ type: 'PERCENTAGE', value: 25 }], billingPeriod: { value: 1, unit: 'YEAR' } })).toBe(750);
  });

  it('gives 0 without a recurring period, and counts only ACTIVE and REDEMPTION', () => {
    expect(monthlyAmount({ lines: [{ billingType: 'ONE_TIME', amount: 100, quantity: 1 }], discounts: [], billingPeriod: null })).toBe(0);
    expect(['CREATED', 'PENDING', 'TRIALING', 'ACTIVE', 'REDEMPTION', 'UNPAID', 'CANCELLED', 'EXPIRED'].filter(countsForMrr)).toEqual(['ACTIVE', 'REDEMPTION']);
  });

  it('makes ARR twelve times MRR', () => {
    expect(annualFromMonthly(833)).toBe(9996);
  });
});
