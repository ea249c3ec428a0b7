import { ApiError } from '../../domain/errors';
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
