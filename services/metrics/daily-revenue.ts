import { currentMonth, daysOf, type Period } from '../../domain/metrics/periods';
import type { Database } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';
import { paymentsByDay, refundsByDay, spanValues } from './day-rollup';
import { figuresCurrency, type CurrencySource } from './main-currency';

export interface DailyRevenue {
  date: string;
  collected: number;
  refunded: number;
}

// From the daily roll-up (services/metrics/day-rollup.ts): a year is a few hundred rows.
const collectedPerDay = sqlStatement(
  'metrics.collected_per_day',
  `SELECT to_char(day, 'YYYY-MM-DD') AS date, sum(amount)::text AS amount FROM (${paymentsByDay('$2', 3)}) AS counted
   WHERE status = 'SUCCEEDED' GROUP BY day`,
  { planEachCall: true },
);

const refundedPerDay = sqlStatement(
  'metrics.refunded_per_day',
  `SELECT to_char(day, 'YYYY-MM-DD') AS date, sum(amount)::text AS amount FROM (${refundsByDay('$2', 3)}) AS counted
   WHERE status = 'SUCCEEDED' GROUP BY day`,
  { planEachCall: true },
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
  const values = [accountId, currency, ...spanValues(period)];
  const [collected, refunded] = await Promise.all([
    readRows<{ date: string; amount: string }>(db, collectedPerDay, values),
    readRows<{ date: string; amount: string }>(db, refundedPerDay, values),
  ]);
  const byDay = (rows: { date: string; amount: string }[]) => new Map(rows.map((row) => [row.date, Number(row.amount)]));
  const collectedOn = byDay(collected);
  const refundedOn = byDay(refunded);
  return { currency: resolved, period, days: daysOf(period).map(({ date }) => ({ date, collected: collectedOn.get(date) ?? 0, refunded: refundedOn.get(date) ?? 0 })) };
}
