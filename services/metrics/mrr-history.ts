import { annualFromMonthly } from '../../domain/metrics/mrr';
import { monthEnds } from '../../domain/metrics/periods';
import type { Database } from '../../prisma/client';
import { figuresCurrency, type CurrencySource } from './main-currency';
import { mrrAt } from './mrr';

export interface MrrPoint {
  month: string;
  at: number;
  mrr: number;
  arr: number;
}

/** MRR at the ends of the last eleven months and now (docs/metrics.md, "metrics/get-mrr-history"). */
export async function readMrrHistory(db: Database, accountId: string, request: { currency?: string }, now: number): Promise<{ currency: { currency: string; source: CurrencySource }; points: MrrPoint[] }> {
  const resolved = await figuresCurrency(db, accountId, request.currency, now);
  const points = monthEnds(now);
  const mrr = await mrrAt(db, accountId, resolved.currency, points.map((point) => point.at), now);
  return { currency: resolved, points: points.map((point, index) => ({ ...point, mrr: mrr[index]!, arr: annualFromMonthly(mrr[index]!) })) };
}
