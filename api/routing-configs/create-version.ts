import { z } from 'zod';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { createRoutingConfigVersion as createRoutingConfigVersionService } from '../../services/routing-configs/create-version';
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
      ctx.transaction(async (tx) =>
        serializeRoutingConfigVersion(
          await createRoutingConfigVersionService(ctx, tx, ctx.principal, {
            routingConfigId: input.routing_config_id,
            routeTree: input.route_tree,
            description: input.description,
          }),
        ),
      ),
    ),
  );
