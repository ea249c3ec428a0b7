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
    WHERE p.account_id = $1 AND p.meter_id = $2 AND p.billing_type = 'USAGE' AND s.status <> ALL($3::text[])
    ORDER BY li.subscription_id, p.id
    LIMIT ${LIMIT}`,
);

/** Line items of subscriptions not yet over (CANCELLED, EXPIRED) that bill a USAGE price of the meter. */
export function liveSubscriptionsBilling(tx: Prisma.TransactionClient, accountId: string, meterId: string): Promise<Array<{ subscriptionId: string; productPriceId: string }>> {
  return readRows(tx, billingLines, [accountId, meterId, [...TERMINAL_STATUSES]]);
}
