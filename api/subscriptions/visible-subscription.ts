import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../generated/prisma/client';
import { subscriptionSelect, type SubscriptionRow } from '../../services/subscriptions/subscription-row';
import { resolveChannelScope } from '../auth/channel-scope';
import type { AuthorizedContext } from '../trpc';

/** The subscription as the caller may see it: unknown or outside the key's channels (or `channel_id`) is 404. */
export async function visibleSubscription(db: Prisma.TransactionClient, ctx: AuthorizedContext, id: string, channelId: string | undefined): Promise<SubscriptionRow> {
  const scope = resolveChannelScope(ctx.principal, channelId);
  const row = await db.subscription.findFirst({ where: { id, accountId: ctx.principal.accountId }, select: subscriptionSelect });
  if (!row || (scope !== null && !scope.includes(row.channelId))) throw ApiError.notFound('Subscription', id);
  return row;
}
