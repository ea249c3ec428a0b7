import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { insertRoutingConfigVersion } from './repository';
import { routeTree, routingConfigId, routingConfigVersionObject, serializeRoutingConfigVersion } from './schemas';

export const createRoutingConfigVersionRequest = z.strictObject({
  routing_config_id: routingConfigId,
  route_tree: routeTree,
  description: z.string().max(500).optional(),
});

export const createRoutingConfigVersion = authorizedProcedure
  .meta(
    operation('routing-configs/create-version', {
      summary: 'Create a draft version of a routing configuration',
      description: 'The new version is a DRAFT numbered one above the latest; it routes nothing until published.',
    }),
  )
  .input(createRoutingConfigVersionRequest)
  .output(routingConfigVersionObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'routing-configs/create-version', input, (ctx) =>
      ctx.transaction(async (tx) => {
        const row = await insertRoutingConfigVersion(tx, ctx.principal, {
          routingConfigId: input.routing_config_id,
          routeTree: input.route_tree,
          description: input.description,
          now: ctx.now(),
        });
        if (!row) throw ApiError.notFound('Routing configuration', input.routing_config_id);
        return serializeRoutingConfigVersion(row);
      }),
    ),
  );
