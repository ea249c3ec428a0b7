import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import { insertEndpoint } from './repository';

export interface NewEndpointRequest {
  accountId: string;
  /** The channel the caller's scope resolved to; null for an all-channel endpoint. */
  channelId: string | null;
  url: string;
  description?: string;
  eventTypes: string[];
}

/**
 * webhooks/create (docs/webhooks.md) in the caller's transaction: an INACTIVE endpoint of a
 * channel of the account (422 CHANNEL_NOT_FOUND otherwise), its signing secret returned once.
 */
export async function createEndpoint(deps: { now: () => Date }, tx: Prisma.TransactionClient, endpoint: NewEndpointRequest) {
  const { channelId, accountId } = endpoint;
  if (channelId !== null && !(await tx.channel.count({ where: { id: channelId, accountId } }))) {
    throw new ApiError('CHANNEL_NOT_FOUND', `Channel ${channelId} does not exist in this account.`, { channel_id: channelId });
  }
  return insertEndpoint(tx, { ...endpoint, now: deps.now() });
}
