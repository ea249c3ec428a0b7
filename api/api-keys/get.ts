import { ApiError } from '../../domain/errors';
import { byIdRequest } from '../common/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { findApiKey } from '../../services/api-keys/repository';
import { apiKeyObject, serializeApiKey } from './schemas';

export const getApiKey = authorizedProcedure
  .meta(operation('api-keys/get', { summary: 'Get an API key', accountLevelOnly: true }))
  .input(byIdRequest('apiKey'))
  .output(apiKeyObject)
  .query(async ({ ctx, input }) => {
    const row = await findApiKey(ctx.db, ctx.principal.accountId, input.id);
    if (!row) throw ApiError.notFound('API key', input.id);
    return serializeApiKey(row);
  });
