import type { TimeUnit } from '../../domain/billing-periods';
import { monthlyAmount } from '../../domain/metrics/mrr';
import type { Discount } from '../../domain/subscriptions/state';
import type { Database } from '../../prisma/client';

/**
 * Writes the monthly amount (domain/metrics/mrr.ts) of the account's subscriptions in `currency`
 * that have none: rows saved before the column existed, or written by a path other than the
 * subscription repository (docs/metrics.md, "The MRR rule"). Every later save keeps it.
 */
export async function fillMonthlyAmounts(db: Database, accountId: string, currency: string): Promise<void> {
  const rows = await db.subscription.findMany({
    where: { accountId, currency, monthlyAmount: null },
    select: { id: true, discounts: true, lineItems: { select: { billingType: true, amount: true, quantity: true, billingPeriodValue: true, billingPeriodUnit: true } } },
  });
  for (const row of rows) {
    const recurring = row.lineItems.find((line) => line.billingType === 'RECURRING');
    const amount = monthlyAmount({
      lines: row.lineItems,
      discounts: (row.discounts as unknown as Discount[]).map((discount) => ({ type: discount.calculation_type, value: discount.calculation_value })),
      billingPeriod: recurring?.billingPeriodValue && recurring.billingPeriodUnit ? { value: recurring.billingPeriodValue, unit: recurring.billingPeriodUnit as TimeUnit } : null,
    });
    await db.subscription.updateMany({ where: { id: row.id, monthlyAmount: null }, data: { monthlyAmount: amount } });
  }
}
