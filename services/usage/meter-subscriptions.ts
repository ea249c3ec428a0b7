import { TERMINAL_STATUSES } from '../../domain/subscription-status';
import type { Prisma } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';

/** How many of them a refusal names: enough to act on, bounded however many there are. */
const LIMIT = 10;

const billingLines = sqlStatement(
  'meters.live_subscriptions_billing',
  `SELECT li.subscription_id AS "subscriptionId", p.id AS "productPriceId"
     FROM product_prices p
     JOIN subscription_line_items li ON li.product_price_id = p.id
     JOIN subscriptions s ON s.id = li.subscription_id
    WHERE p.account_id = $1 AND p.meter_id = $2 AND p.billing_type = 'USAGE'
      AND (s.status <> ALL($3::text[]) OR (li.started_at IS NOT NULL AND li.period_start_at < li.period_end_at))
    ORDER BY li.subscription_id, p.id
    LIMIT ${LIMIT}`,
);

/**
 * Line items that bill a USAGE price of the meter and may still bill it: of subscriptions not
 * yet over (CANCELLED, EXPIRED), or over but with their last usage not invoiced yet (the usage
 * line still has a period open: the final usage invoice closes it, docs/usage.md).
 */
export function liveSubscriptionsBilling(tx: Prisma.TransactionClient, accountId: string, meterId: string): Promise<Array<{ subscriptionId: string; productPriceId: string }>> {
  return readRows(tx, billingLines, [accountId, meterId, [...TERMINAL_STATUSES]]);
}
