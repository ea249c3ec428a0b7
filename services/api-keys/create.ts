import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import { requireWithinCallerPermissions, type Caller } from './permission-ceiling';
import { insertApiKey, unknownChannelIds } from './repository';

export interface NewApiKeyRequest {
  name: string;
  description?: string;
  channelIds: string[];
  permissions: string[];
}

/**
 * api-keys/create (docs/api-keys.md) in the caller's transaction: only permissions the caller
 * holds (403), only channels of the account (422 CHANNEL_NOT_FOUND). The secret is returned once.
 */
export async function createApiKey(deps: { now: () => Date }, tx: Prisma.TransactionClient, caller: Caller, input: NewApiKeyRequest) {
  requireWithinCallerPermissions(caller, input.permissions, 'An API key cannot grant permissions it does not hold.');
  const unknown = await unknownChannelIds(tx, caller.accountId, input.channelIds);
  if (unknown.length > 0) {
    throw new ApiError('CHANNEL_NOT_FOUND', 'These channels do not exist in this account.', { channel_ids: unknown });
  }
  return insertApiKey(tx, { accountId: caller.accountId, ...input, issuedByUserId: caller.user?.userId, now: deps.now() });
}
