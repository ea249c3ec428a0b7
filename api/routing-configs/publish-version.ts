import { ApiError } from '../../domain/errors';
import { recordEvent } from '../../prisma/outbox';
import { byIdRequest } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { publishRoutingConfigVersion } from '../../services/routing-configs/repository';
import { routingConfigVersionObject, serializeRoutingConfigVersion } from './schemas';

export const publishRoutingConfigVersionOperation = authorizedProcedure
  .meta(
    operation('routing-configs/publish-version', {
      summary: 'Publish a draft version',
      description:
        'Payments route by it from the commit on; the version published before becomes ARCHIVED. Emits ROUTING_CONFIG_VERSION_PUBLISHED. Only a DRAFT version is published.',
    }),
  )
  .input(byIdRequest('routingConfigVersion'))
  .output(routingConfigVersionObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'routing-configs/publish-version', input, (ctx) =>
      ctx.transaction(async (tx) => {
        const now = ctx.now();
        const published = await publishRoutingConfigVersion(tx, ctx.principal, input.id, now);
        if (!published) throw ApiError.notFound('Routing configuration version', input.id);
        const version = serializeRoutingConfigVersion(published.version);
        await recordEvent(tx, {
          accountId: ctx.principal.accountId,
          channelId: published.channelId,
          name: 'RoutingConfigVersionPublished',
          data: { routing_config_version: version },
          occurredAt: now,
        });
        return version;
      }),
    ),
  );
