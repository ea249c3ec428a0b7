import type { Database } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';
import { paymentsByDay, spanValues } from './day-rollup';

/** How far back the account's main currency is judged (docs/metrics.md, "Request"). */
export const MAIN_CURRENCY_WINDOW_MS = 90 * 86_400_000;

export const FALLBACK_CURRENCY = 'EUR';

export type CurrencySource = 'REQUEST' | 'MAIN_CURRENCY' | 'DEFAULT';

// The account's currencies by a loose scan of the payments index (one probe per currency), then
// each currency's 90 days from the daily roll-up (services/metrics/day-rollup.ts).
const mainCurrency = sqlStatement(
  'metrics.main_currency',
  `WITH RECURSIVE currencies AS (
     (SELECT currency FROM payments WHERE account_id = $1 ORDER BY currency LIMIT 1)
     UNION ALL
     SELECT (SELECT p.currency FROM payments p WHERE p.account_id = $1 AND p.currency > c.currency ORDER BY p.currency LIMIT 1)
     FROM currencies c WHERE c.currency IS NOT NULL
   )
   SELECT candidate.currency FROM currencies candidate,
     LATERAL (SELECT sum(amount) AS collected, sum(count) AS payments FROM (${paymentsByDay('candidate.currency', 2)}) AS counted WHERE status = 'SUCCEEDED') AS v
   WHERE candidate.currency IS NOT NULL AND v.payments > 0
   ORDER BY v.collected DESC, candidate.currency LIMIT 1`,
  { planEachCall: true },
);

/** The currency the figures are read in: the one asked for, else the account's main currency, else EUR. */
export async function figuresCurrency(db: Database, accountId: string, requested: string | undefined, now: number): Promise<{ currency: string; source: CurrencySource }> {
  if (requested) return { currency: requested, source: 'REQUEST' };
  const [main] = await readRows<{ currency: string }>(db, mainCurrency, [accountId, ...spanValues({ from: now - MAIN_CURRENCY_WINDOW_MS, to: now })]);
  return main ? { currency: main.currency, source: 'MAIN_CURRENCY' } : { currency: FALLBACK_CURRENCY, source: 'DEFAULT' };
}
