import { ApiError } from '../../domain/errors';
import { byIdRequest } from '../common/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { findRoutingConfig } from '../../services/routing-configs/repository';
import { routingConfigObject, serializeRoutingConfig } from './schemas';

export const getRoutingConfig = authorizedProcedure
  .meta(operation('routing-configs/get', { summary: 'Get a routing configuration' }))
  .input(byIdRequest('routingConfig'))
  .output(routingConfigObject)
  .query(async ({ ctx, input }) => {
    const row = await findRoutingConfig(ctx.db, ctx.principal, input.id);
    if (!row) throw ApiError.notFound('Routing configuration', input.id);
    return serializeRoutingConfig(row);
  });
