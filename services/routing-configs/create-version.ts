import type { ChannelScope } from '../../domain/channel-scope';
import { ApiError } from '../../domain/errors';
import type { RouteTree } from '../../domain/routing';
import type { Prisma } from '../../prisma/client';
import { insertRoutingConfigVersion } from './repository';

/** routing-configs/create-version in the caller's transaction: a DRAFT of a configuration the caller sees (404 otherwise). */
export async function createRoutingConfigVersion(
  deps: { now: () => Date },
  tx: Prisma.TransactionClient,
  scope: ChannelScope,
  version: { routingConfigId: string; routeTree: RouteTree; description?: string },
) {
  const row = await insertRoutingConfigVersion(tx, scope, { ...version, now: deps.now() });
  if (!row) throw ApiError.notFound('Routing configuration', version.routingConfigId);
  return row;
}
