import { byIdRequest } from '../common/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { visibleEndpoint } from '../../services/webhooks/endpoints';
import { serializeEndpoint, webhookEndpointObject } from './schemas';

export const getWebhook = authorizedProcedure
  .meta(operation('webhooks/get', { summary: 'Get a webhook endpoint', description: 'Deleted endpoints and endpoints outside the key’s channels are 404. The secret is never shown again.' }))
  .input(byIdRequest('webhookEndpoint'))
  .output(webhookEndpointObject)
  .query(async ({ ctx, input }) => serializeEndpoint(await visibleEndpoint(ctx.db, ctx.principal, input.id)));
