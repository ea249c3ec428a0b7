import { ApiError } from '../../domain/errors';
import type { Scope } from '../../services/scope';
import { isAccountLevel, type Principal } from './principal';

/**
 * Which channels an operation may touch (section 5.1, items 4 and 6). `null` means all of the
 * account's channels. A key bound to several channels must name one with `channel_id`; a key
 * bound to one uses it when none is given.
 */
export function resolveChannelScope(principal: Principal, channelId: string | undefined): string[] | null {
  if (isAccountLevel(principal)) return channelId ? [channelId] : null;
  if (channelId) {
    if (!principal.channelIds.includes(channelId)) {
      throw new ApiError('PERMISSION_DENIED', `This API key cannot access channel ${channelId}.`);
    }
    return [channelId];
  }
  if (principal.channelIds.length > 1) {
    throw ApiError.validation(
      { channel_id: { type: 'REQUIRED', message: 'Required for an API key bound to several channels.' } },
    );
  }
  return principal.channelIds;
}

/**
 * The one channel a new record is created in: the one named, the only one of a single-channel
 * key, or for an account-level key that names none, the account's default channel.
 */
export function resolveWriteChannel(principal: Principal, channelId: string | undefined, defaultChannelId: string | null): string {
  const scope = resolveChannelScope(principal, channelId);
  if (scope) return scope[0]!;
  if (!defaultChannelId) {
    throw ApiError.validation({ channel_id: { type: 'REQUIRED', message: 'This account has no default channel; name one.' } });
  }
  return defaultChannelId;
}

export { channelVisible } from '../../domain/channel-scope';

/** The scope a service runs in for this caller and the `channel_id` it named. */
export function operationScope(principal: Principal, channelId: string | undefined): Scope {
  return {
    accountId: principal.accountId,
    channels: resolveChannelScope(principal, channelId),
    keyChannels: isAccountLevel(principal) ? null : principal.channelIds,
  };
}

/**
 * The scope of an operation over all the key reaches (reports, section 2.8: "only the account and
 * channels the API key can access"): the channel named, else every channel of the key (null: all
 * of the account's for an account-level key). Unlike operationScope, a key bound to several
 * channels need not name one.
 */
export function reachScope(principal: Principal, channelId: string | undefined): Scope {
  const keyChannels = isAccountLevel(principal) ? null : principal.channelIds;
  return {
    accountId: principal.accountId,
    channels: channelId ? resolveChannelScope(principal, channelId) : keyChannels,
    keyChannels,
  };
}
