/** Whom an operation acts for: an account, and the channels its API key is bound to. */
export interface ChannelScope {
  accountId: string;
  /** Empty for an account-level key, which reaches every channel. */
  channelIds: readonly string[];
}

export function isAccountLevel(scope: Pick<ChannelScope, 'channelIds'>): boolean {
  return scope.channelIds.length === 0;
}

/**
 * Whether a record in `channelId` is visible to the caller (else it answers 404 as if absent);
 * one in no channel (all channels) is account-level.
 */
export function channelVisible(scope: Pick<ChannelScope, 'channelIds'>, channelId: string | null): boolean {
  return isAccountLevel(scope) || (channelId !== null && scope.channelIds.includes(channelId));
}
