import type { Database } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';
import { fillMonthlyAmounts } from './monthly-amounts';

/**
 * MRR at instants (docs/metrics.md, "The MRR rule"): Σ monthly_amount of the subscriptions in
 * the currency whose status then was ACTIVE or REDEMPTION. Now is the rows' status; an earlier
 * instant reads the status history. Each statement also counts the rows with no monthly amount
 * yet: those are filled and the figures read again.
 */
const mrrNow = sqlStatement(
  'metrics.mrr_now',
  `SELECT COALESCE(sum(monthly_amount), 0)::text AS mrr, count(*) FILTER (WHERE monthly_amount IS NULL)::int AS unfilled
   FROM subscriptions WHERE account_id = $1 AND currency = $2 AND status IN ('ACTIVE', 'REDEMPTION')`,
);

// The status a subscription held from each change until the next one; a change at `at` counts at `at`.
const mrrAtInstants = sqlStatement(
  'metrics.mrr_at_instants',
  `WITH spans AS (
     SELECT c.to_status, c.occurred_at AS since, s.monthly_amount,
            lead(c.occurred_at) OVER (PARTITION BY c.subscription_id ORDER BY c.version) AS until
     FROM subscription_status_changes c JOIN subscriptions s ON s.id = c.subscription_id
     WHERE s.account_id = $1 AND s.currency = $2 AND c.occurred_at <= $4
   )
   SELECT t.i::int AS i, COALESCE(sum(sp.monthly_amount), 0)::text AS mrr, count(sp.since) FILTER (WHERE sp.monthly_amount IS NULL)::int AS unfilled
   FROM unnest($3::timestamptz[]) WITH ORDINALITY AS t(at, i)
   LEFT JOIN spans sp ON sp.to_status IN ('ACTIVE', 'REDEMPTION') AND sp.since <= t.at AND (sp.until IS NULL OR sp.until > t.at)
   GROUP BY t.i ORDER BY t.i`,
);

export async function currentMrr(db: Database, accountId: string, currency: string): Promise<number> {
  let [row] = await readRows<{ mrr: string; unfilled: number }>(db, mrrNow, [accountId, currency]);
  if (row!.unfilled > 0) {
    await fillMonthlyAmounts(db, accountId, currency);
    [row] = await readRows<{ mrr: string; unfilled: number }>(db, mrrNow, [accountId, currency]);
  }
  return Number(row!.mrr);
}

/** MRR at each instant, in order: instants at or after `now` read the rows' status, earlier ones the history. */
export async function mrrAt(db: Database, accountId: string, currency: string, instants: readonly number[], now: number): Promise<number[]> {
  const past = instants.filter((at) => at < now);
  const read = () => readRows<{ i: number; mrr: string; unfilled: number }>(db, mrrAtInstants, [accountId, currency, past.map((at) => new Date(at)), new Date(Math.max(...past))]);
  let history = past.length > 0 ? await read() : [];
  if (history.some((row) => row.unfilled > 0)) {
    await fillMonthlyAmounts(db, accountId, currency);
    history = await read();
  }
  const current = past.length < instants.length ? await currentMrr(db, accountId, currency) : 0;
  let next = 0;
  return instants.map((at) => (at < now ? Number(history[next++]!.mrr) : current));
}
