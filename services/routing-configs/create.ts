import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import { insertRoutingConfig, unknownChannel } from './repository';

/**
 * routing-configs/create in the caller's transaction: a configuration of a channel of the
 * account (422 CHANNEL_NOT_FOUND otherwise), or of the whole account when `channelId` is null.
 */
export async function createRoutingConfig(
  deps: { now: () => Date },
  tx: Prisma.TransactionClient,
  config: { accountId: string; channelId: string | null; name: string },
) {
  if (config.channelId && (await unknownChannel(tx, config.accountId, config.channelId))) {
    throw new ApiError('CHANNEL_NOT_FOUND', `Channel ${config.channelId} does not exist in this account.`, { channel_id: config.channelId });
  }
  return insertRoutingConfig(tx, { ...config, now: deps.now() });
}
