/**
 * What a caller may reach, resolved by the transport from its credentials (api/auth/channel-scope)
 * before a service runs: the account, and the channels of this operation (null: all of the
 * account's). `keyChannels` are all the channels the key reaches, whatever `channel_id` narrowed
 * the operation to (null: account-level key).
 */
export interface Scope {
  accountId: string;
  channels: readonly string[] | null;
  keyChannels: readonly string[] | null;
}

/** A record in `channelId` is visible to the key (else it is answered as absent). */
export function keyReaches(scope: Scope, channelId: string): boolean {
  return scope.keyChannels === null || scope.keyChannels.includes(channelId);
}
