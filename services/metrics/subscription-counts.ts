import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../domain/subscription-status';
import type { Database } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';
import { figuresCurrency, type CurrencySource } from './main-currency';

const countsByStatus = sqlStatement(
  'metrics.subscription_counts',
  'SELECT status, count(*)::int AS count FROM subscriptions WHERE account_id = $1 AND currency = $2 GROUP BY status',
);

/** The account's subscriptions in the currency by status now, every status present. */
export async function readSubscriptionCounts(
  db: Database,
  accountId: string,
  request: { currency?: string },
  now: number,
): Promise<{ currency: { currency: string; source: CurrencySource }; counts: Record<SubscriptionStatus, number> }> {
  const resolved = await figuresCurrency(db, accountId, request.currency, now);
  const { currency } = resolved;
  const rows = await readRows<{ status: SubscriptionStatus; count: number }>(db, countsByStatus, [accountId, currency]);
  const counted = new Map(rows.map((row) => [row.status, row.count]));
  return { currency: resolved, counts: Object.fromEntries(SUBSCRIPTION_STATUSES.map((status) => [status, counted.get(status) ?? 0])) as Record<SubscriptionStatus, number> };
}
