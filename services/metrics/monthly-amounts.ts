import { subscriptionMonthlyAmount } from '../../domain/metrics/subscription-monthly-amount';
import type { Database } from '../../prisma/client';
import { readRows, sqlStatement, writeRows } from '../../prisma/statements';
import { stateOfRow } from '../subscriptions/repository';
import { subscriptionSelect } from '../subscriptions/subscription-row';

/** Rows per statement: one read of their lines, one UPDATE of their amounts. */
const BATCH = 1_000;

const unfilledIds = sqlStatement(
  'metrics.unfilled_monthly_amounts',
  `SELECT id FROM subscriptions WHERE account_id = $1 AND currency = $2 AND monthly_amount IS NULL AND id > $3 ORDER BY id LIMIT $4`,
);

const writeAmounts = sqlStatement(
  'metrics.fill_monthly_amounts',
  `UPDATE subscriptions AS s SET monthly_amount = v.amount::numeric
   FROM unnest($1::text[], $2::text[]) AS v(id, amount)
   WHERE s.id = v.id AND s.monthly_amount IS NULL`,
);

/** One fill per account and currency at a time in this process: the overview's parallel reads wait for it rather than repeat it. */
const running = new Map<string, Promise<void>>();

/**
 * Writes the monthly amount (domain/metrics/mrr.ts, through the same function every save uses) of
 * the account's subscriptions in `currency` that have none: rows saved before the column existed
 * (docs/metrics.md, "The MRR rule"). In batches of 1,000, each one read and one UPDATE; a row a
 * save filled meanwhile keeps what the save wrote.
 */
export function fillMonthlyAmounts(db: Database, accountId: string, currency: string): Promise<void> {
  const key = `${accountId}/${currency}`;
  const pending = running.get(key);
  if (pending) return pending;
  const fill = fillInBatches(db, accountId, currency).finally(() => running.delete(key));
  running.set(key, fill);
  return fill;
}

async function fillInBatches(db: Database, accountId: string, currency: string): Promise<void> {
  let after = '';
  for (;;) {
    const ids = (await readRows<{ id: string }>(db, unfilledIds, [accountId, currency, after, BATCH])).map((row) => row.id);
    if (ids.length === 0) return;
    const rows = await db.subscription.findMany({ where: { id: { in: ids } }, select: subscriptionSelect });
    const amounts = rows.map((row) => String(subscriptionMonthlyAmount(stateOfRow(row))));
    await writeRows(db, writeAmounts, [rows.map((row) => row.id), amounts]);
    after = ids.at(-1)!;
  }
}
