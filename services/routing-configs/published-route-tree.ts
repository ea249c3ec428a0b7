import { DEFAULT_PROVIDERS, STRIPE_DEFAULT_PROVIDERS, type RouteTree } from '../../domain/routing';
import type { Database, Prisma } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';

/** One statement: an account has at most one configuration per channel and one account-wide (insertRoutingConfig). */
const publishedRouteTreeSql = sqlStatement(
  'routing_configs.published_tree',
  `SELECT (SELECT v.route_tree
           FROM routing_configs c JOIN routing_config_versions v ON v.id = c.published_version_id
           WHERE c.account_id = $1 AND (c.channel_id = $2 OR c.channel_id IS NULL)
           ORDER BY c.channel_id IS NULL
           LIMIT 1) AS "routeTree",
          EXISTS (SELECT 1 FROM stripe_connections WHERE account_id = $1) AS "stripe"`,
);

/**
 * The route a charge in `channelId` follows: the published version of the channel's
 * configuration, else of the account-wide one, else the default route: Stripe alone for an
 * account connected to it (a live account must never fall back to the sandbox), the sandboxes
 * otherwise. A configuration without a published version does not count.
 */
export async function publishedRouteTree(db: Database | Prisma.TransactionClient, accountId: string, channelId: string): Promise<RouteTree> {
  const [row] = await readRows<{ routeTree: RouteTree | null; stripe: boolean }>(db, publishedRouteTreeSql, [accountId, channelId]);
  return row?.routeTree ?? { rules: [], default_providers: [...(row?.stripe ? STRIPE_DEFAULT_PROVIDERS : DEFAULT_PROVIDERS)] };
}
