import type { Database } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';

/** How far back the account's main currency is judged (docs/metrics.md, "Request"). */
export const MAIN_CURRENCY_WINDOW_MS = 90 * 86_400_000;

export const FALLBACK_CURRENCY = 'EUR';

export type CurrencySource = 'REQUEST' | 'MAIN_CURRENCY' | 'DEFAULT';

const mainCurrency = sqlStatement(
  'metrics.main_currency',
  `SELECT currency FROM payments
   WHERE account_id = $1 AND created_at >= $2 AND created_at < $3 AND status = 'SUCCEEDED'
   GROUP BY currency ORDER BY sum(amount) DESC, currency LIMIT 1`,
);

/** The currency the figures are read in: the one asked for, else the account's main currency, else EUR. */
export async function figuresCurrency(db: Database, accountId: string, requested: string | undefined, now: number): Promise<{ currency: string; source: CurrencySource }> {
  if (requested) return { currency: requested, source: 'REQUEST' };
  const [main] = await readRows<{ currency: string }>(db, mainCurrency, [accountId, new Date(now - MAIN_CURRENCY_WINDOW_MS), new Date(now)]);
  return main ? { currency: main.currency, source: 'MAIN_CURRENCY' } : { currency: FALLBACK_CURRENCY, source: 'DEFAULT' };
}
