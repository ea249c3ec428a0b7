import { ApiError } from '../../domain/errors';
import { byIdRequest } from '../common/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { findRoutingConfigVersion } from '../../services/routing-configs/repository';
import { routingConfigVersionObject, serializeRoutingConfigVersion } from './schemas';

export const getRoutingConfigVersion = authorizedProcedure
  .meta(operation('routing-configs/get-version', { summary: 'Get a routing configuration version with its full route tree' }))
  .input(byIdRequest('routingConfigVersion'))
  .output(routingConfigVersionObject)
  .query(async ({ ctx, input }) => {
    const row = await findRoutingConfigVersion(ctx.db, ctx.principal, input.id);
    if (!row) throw ApiError.notFound('Routing configuration version', input.id);
    return serializeRoutingConfigVersion(row);
  });
