import { ApiError } from '../../domain/errors';
import { resolveWriteChannel } from '../auth/channel-scope';
import type { AuthorizedContext } from '../trpc';

/** The channel a create writes to, checked to be one of the caller's account. */
export async function writeChannel(ctx: AuthorizedContext, channelId: string | undefined): Promise<string> {
  const account = await ctx.db.account.findUniqueOrThrow({
    where: { id: ctx.principal.accountId },
    select: { defaultChannelId: true },
  });
  const resolved = resolveWriteChannel(ctx.principal, channelId, account.defaultChannelId);
  const exists = await ctx.db.channel.count({ where: { id: resolved, accountId: ctx.principal.accountId } });
  if (!exists) throw new ApiError('CHANNEL_NOT_FOUND', `Channel ${resolved} does not exist in this account.`, { channel_id: resolved });
  return resolved;
}
