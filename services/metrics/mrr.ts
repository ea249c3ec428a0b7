import type { Database } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';
import { fillMonthlyAmounts } from './monthly-amounts';

/**
 * MRR at instants (docs/metrics.md, "The MRR rule"): Σ monthly_amount of the subscriptions in
 * the currency whose status then was ACTIVE, or REDEMPTION after having been ACTIVE (a first
 * invoice in dunning was never paid: no revenue recurs yet). Now is the rows' status; an earlier
 * instant reads the status history as changes of MRR: a change into a counted status from one
 * that is not adds the subscription's monthly amount, the reverse takes it away, so MRR at T is
 * MRR now less the changes after T. Only the changes since the earliest instant are read, with
 * no look-back per subscription. Each statement also counts the rows with no monthly amount
 * yet: those are filled and the figures read again.
 */
const mrrNow = sqlStatement(
  'metrics.mrr_now',
  // Two ranges, so the ACTIVE one (nearly all rows) stays an index-only read of
  // (account_id, currency, status, monthly_amount); only REDEMPTION rows visit the table.
  `SELECT COALESCE(sum(monthly_amount), 0)::text AS mrr, count(*) FILTER (WHERE monthly_amount IS NULL)::int AS unfilled
   FROM (
     SELECT monthly_amount FROM subscriptions WHERE account_id = $1 AND currency = $2 AND status = 'ACTIVE'
     UNION ALL
     SELECT monthly_amount FROM subscriptions WHERE account_id = $1 AND currency = $2 AND status = 'REDEMPTION' AND first_active_at IS NOT NULL
   ) AS counted`,
);

// $3: the instants, ascending, each plus a microsecond: width_bucket gives the number of instants
// strictly before the change, so a change of bucket b happened after instants 0 … b − 1 (0-based).
const mrrChanges = sqlStatement(
  'metrics.mrr_changes',
  `SELECT bucket, sum(monthly_amount * (counted_after::int - counted_before::int))::text AS delta, count(*) FILTER (WHERE monthly_amount IS NULL)::int AS unfilled
   FROM (
     SELECT width_bucket(c.occurred_at, $3::timestamptz[]) AS bucket, s.monthly_amount,
            (c.to_status = 'ACTIVE' OR (c.to_status = 'REDEMPTION' AND COALESCE(s.first_active_at <= c.occurred_at, false))) AS counted_after,
            COALESCE(c.from_status = 'ACTIVE' OR (c.from_status = 'REDEMPTION' AND COALESCE(s.first_active_at <= c.occurred_at, false)), false) AS counted_before
     FROM subscriptions s JOIN subscription_status_changes c ON c.subscription_id = s.id
     WHERE c.account_id = $1 AND s.account_id = $1 AND s.currency = $2 AND c.occurred_at > $4
       -- A change between two statuses never counted (a creation, TRIALING to CANCELLED) cannot
       -- change MRR: left out before the join, from the index alone.
       AND (c.to_status IN ('ACTIVE', 'REDEMPTION') OR c.from_status IN ('ACTIVE', 'REDEMPTION'))
   ) AS changes
   WHERE counted_after IS DISTINCT FROM counted_before
   GROUP BY 1`,
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
  const past = [...new Set(instants.filter((at) => at < now))].sort((a, b) => a - b);
  const read = () =>
    readRows<{ bucket: number; delta: string; unfilled: number }>(db, mrrChanges, [
      accountId,
      currency,
      past.map((at) => new Date(at).toISOString().replace('Z', '001Z')),
      new Date(past[0]!),
    ]);
  let changes = past.length > 0 ? await read() : [];
  if (changes.some((row) => row.unfilled > 0)) {
    await fillMonthlyAmounts(db, accountId, currency);
    changes = await read();
  }
  const current = await currentMrr(db, accountId, currency);
  const atPast = new Map(past.map((at, index) => [at, current - changes.filter((row) => row.bucket > index).reduce((sum, row) => sum + Number(row.delta), 0)]));
  return instants.map((at) => (at < now ? atPast.get(at)! : current));
}
