import { DEFAULT_PROVIDERS, type RouteTree } from '../../domain/routing';
import type { Database } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';

/** One statement: an account has at most one configuration per channel and one account-wide (insertRoutingConfig). */
const publishedRouteTreeSql = sqlStatement(
  'routing_configs.published_tree',
  `SELECT v.route_tree AS "routeTree"
   FROM routing_configs c JOIN routing_config_versions v ON v.id = c.published_version_id
   WHERE c.account_id = $1 AND (c.channel_id = $2 OR c.channel_id IS NULL)
   ORDER BY c.channel_id IS NULL
   LIMIT 1`,
);

/**
 * The route a charge in `channelId` follows: the published version of the channel's
 * configuration, else of the account-wide one, else the default route. A configuration without a
 * published version does not count.
 */
export async function publishedRouteTree(db: Database, accountId: string, channelId: string): Promise<RouteTree> {
  const [published] = await readRows<{ routeTree: RouteTree }>(db, publishedRouteTreeSql, [accountId, channelId]);
  return published?.routeTree ?? { rules: [], default_providers: [...DEFAULT_PROVIDERS] };
}
