import type { BillingPeriod, TimeUnit } from '../billing-periods';
import { invoiceDiscount, type DiscountInput } from '../invoice-amounts';
import { divideHalfUp } from '../rounding';

/**
 * Monthly recurring revenue, the one rule (docs/metrics.md, "The MRR rule"). Pure and exact:
 * the month factor of each billing period is a ratio of integers, so nothing passes through a
 * binary fraction and the only rounding is the last one, half up, per subscription.
 */

/**
 * Only these statuses carry revenue: ACTIVE, and REDEMPTION (in dunning, still running) once the
 * subscription has been ACTIVE: services/metrics/mrr.ts reads `first_active_at` for that.
 */
export const MRR_STATUSES = ['ACTIVE', 'REDEMPTION'] as const;

export function countsForMrr(status: string): boolean {
  return (MRR_STATUSES as readonly string[]).includes(status);
}

/** A month is 365.25 / 12 = 30.4375 = 487/16 days: months per one unit, as numerator / denominator. */
const MONTHS_PER_UNIT: Record<TimeUnit, readonly [bigint, bigint]> = {
  MINUTE: [1n, 43_830n],
  HOUR: [2n, 1_461n],
  DAY: [16n, 487n],
  WEEK: [112n, 487n],
  MONTH: [1n, 1n],
  QUARTER: [3n, 1n],
  YEAR: [12n, 1n],
};

export interface MrrLine {
  /** RECURRING counts; ONE_TIME and USAGE do not. */
  billingType: string;
  /** Unit amount in minor units. */
  amount: number;
  quantity: number;
}

export interface MrrSubscription {
  lines: readonly MrrLine[];
  discounts: readonly DiscountInput[];
  /** The billing period every RECURRING line shares; null when it has none. */
  billingPeriod: BillingPeriod | null;
}

/**
 * What one full cycle of the recurring lines bills before tax: Σ amount × quantity, less the
 * discounts as an invoice applies them (domain/invoice-amounts.ts).
 */
export function recurringCycleAmount(subscription: MrrSubscription): number {
  const base = subscription.lines.filter((line) => line.billingType === 'RECURRING').reduce((sum, line) => sum + line.amount * line.quantity, 0);
  return base - invoiceDiscount(base, subscription.discounts);
}

/**
 * The cycle amount per month, rounded once, half up: what the subscription adds to MRR while its
 * status counts (countsForMrr), whatever its status now.
 */
export function monthlyAmount(subscription: MrrSubscription): number {
  const period = subscription.billingPeriod;
  if (!period) return 0;
  const cycle = BigInt(recurringCycleAmount(subscription));
  const [unitMonthsNumerator, unitMonthsDenominator] = MONTHS_PER_UNIT[period.unit];
  // cycle ÷ (value × months per unit)
  return Number(divideHalfUp(cycle * unitMonthsDenominator, BigInt(period.value) * unitMonthsNumerator));
}

/** ARR is twelve months of MRR, exactly. */
export function annualFromMonthly(mrr: number): number {
  return 12 * mrr;
}
