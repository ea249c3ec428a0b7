import { currentMonth, daysOf, type Period } from '../../domain/metrics/periods';
import type { Database } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';
import { figuresCurrency, type CurrencySource } from './main-currency';

export interface DailyRevenue {
  date: string;
  collected: number;
  refunded: number;
}

const collectedPerDay = sqlStatement(
  'metrics.collected_per_day',
  `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, sum(amount)::text AS amount FROM payments
   WHERE account_id = $1 AND currency = $2 AND status = 'SUCCEEDED' AND created_at >= $3 AND created_at < $4
   GROUP BY 1`,
);

// A refund is in its payment's currency.
const refundedPerDay = sqlStatement(
  'metrics.refunded_per_day',
  `SELECT to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, sum(r.amount)::text AS amount
   FROM refunds r JOIN payments p ON p.id = r.payment_id
   WHERE r.account_id = $1 AND r.status = 'SUCCEEDED' AND r.created_at >= $3 AND r.created_at < $4 AND p.currency = $2
   GROUP BY 1`,
);

/** Collected and refunded per UTC day of the period, every day present (docs/metrics.md, "metrics/get-daily-revenue"). */
export async function readDailyRevenue(
  db: Database,
  accountId: string,
  request: { currency?: string; period?: Period },
  now: number,
): Promise<{ currency: { currency: string; source: CurrencySource }; period: Period; days: DailyRevenue[] }> {
  const resolved = await figuresCurrency(db, accountId, request.currency, now);
  const { currency } = resolved;
  const period = request.period ?? currentMonth(now);
  const values = [accountId, currency, new Date(period.from), new Date(period.to)];
  const [collected, refunded] = await Promise.all([
    readRows<{ date: string; amount: string }>(db, collectedPerDay, values),
    readRows<{ date: string; amount: string }>(db, refundedPerDay, values),
  ]);
  const byDay = (rows: { date: string; amount: string }[]) => new Map(rows.map((row) => [row.date, Number(row.amount)]));
  const collectedOn = byDay(collected);
  const refundedOn = byDay(refunded);
  return { currency: resolved, period, days: daysOf(period).map(({ date }) => ({ date, collected: collectedOn.get(date) ?? 0, refunded: refundedOn.get(date) ?? 0 })) };
}
