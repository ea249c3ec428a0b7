import type { Database } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';

/** Changes one statement folds at most: a short transaction whatever the backlog. */
const BATCH = 10_000;

// One statement each: the changes taken are deleted and added to their days together, so a
// reader sees them in one place or the other, never both, never neither. SKIP LOCKED gives two
// folds disjoint changes; a change not yet committed is not seen, and is folded by a later run.
// The days are written in key order, so two folds adding to the same days wait for each other
// instead of deadlocking.
const foldPayments = sqlStatement(
  'metrics.fold_payment_day_changes',
  `WITH taken AS (
     DELETE FROM metrics_payment_day_changes
     WHERE id IN (SELECT id FROM metrics_payment_day_changes ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING account_id, currency, day, status, decline_code, payment_count, amount
   ), added AS (
     INSERT INTO metrics_payment_days AS d (account_id, currency, day, status, decline_code, payment_count, amount)
     SELECT account_id, currency, day, status, decline_code, sum(payment_count), sum(amount) FROM taken GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
     ON CONFLICT (account_id, currency, day, status, decline_code)
     DO UPDATE SET payment_count = d.payment_count + EXCLUDED.payment_count, amount = d.amount + EXCLUDED.amount
     RETURNING 1
   )
   SELECT count(*)::int AS folded FROM taken`,
);

const foldRefunds = sqlStatement(
  'metrics.fold_refund_day_changes',
  `WITH taken AS (
     DELETE FROM metrics_refund_day_changes
     WHERE id IN (SELECT id FROM metrics_refund_day_changes ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING account_id, currency, day, status, refund_count, amount
   ), added AS (
     INSERT INTO metrics_refund_days AS d (account_id, currency, day, status, refund_count, amount)
     SELECT account_id, currency, day, status, sum(refund_count), sum(amount) FROM taken GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
     ON CONFLICT (account_id, currency, day, status)
     DO UPDATE SET refund_count = d.refund_count + EXCLUDED.refund_count, amount = d.amount + EXCLUDED.amount
     RETURNING 1
   )
   SELECT count(*)::int AS folded FROM taken`,
);

/**
 * Folds the changes the triggers on payments and refunds wrote into the daily roll-up
 * (docs/metrics.md, "Daily roll-up"), batch after batch until a batch comes back short; `progress`
 * hears the running count. The figures read the same before and after: this only keeps the
 * changes a reader adds up few.
 */
export async function foldMetricsDayChanges(db: Database, progress: (folded: number) => void = () => {}, batch = BATCH): Promise<{ folded: number }> {
  let folded = 0;
  for (const statement of [foldPayments, foldRefunds]) {
    for (;;) {
      const [row] = await readRows<{ folded: number }>(db, statement, [batch]);
      folded += row!.folded;
      progress(folded);
      if (row!.folded < batch) break;
    }
  }
  return { folded };
}
