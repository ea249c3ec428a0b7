import { z } from 'zod';
import { resolveChannelScope } from '../auth/channel-scope';
import { channelIdField } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { createRoutingConfig as createRoutingConfigService } from '../../services/routing-configs/create';
import { routingConfigObject, serializeRoutingConfig } from './schemas';

export const createRoutingConfigRequest = z.strictObject({
  name: z.string().trim().min(1).regex(/\S/).max(100),
  channel_id: channelIdField.meta({
    description: 'The channel the configuration routes. Leave out with an account-level key for the account-wide configuration.',
  }),
});

export const createRoutingConfig = authorizedProcedure
  .meta(
    operation('routing-configs/create', {
      summary: 'Create a routing configuration',
      description:
        'One per channel, plus one account-wide (no `channel_id`, account-level key).',
    }),
  )
  .input(createRoutingConfigRequest)
  .output(routingConfigObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'routing-configs/create', input, (ctx) => {
      const scope = resolveChannelScope(ctx.principal, input.channel_id);
      return ctx.transaction(async (tx) =>
        serializeRoutingConfig(await createRoutingConfigService(ctx, tx, { accountId: ctx.principal.accountId, channelId: scope ? scope[0]! : null, name: input.name })),
      );
    }),
  );
