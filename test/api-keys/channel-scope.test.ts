import { resolveChannelScope } from '../../api/auth/channel-scope';
import type { Principal } from '../../api/auth/principal';
import { ApiError } from '../../domain/errors';

const principal = (channelIds: string[]): Principal => ({
  accountId: 'acct_1',
  apiKeyId: 'akey_1',
  channelIds,
  permissions: new Set(),
});

function errorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a refusal');
}

describe('channel scope of a key (section 5.1)', () => {
  it('lets an account-level key reach every channel, or the one it names', () => {
    expect(resolveChannelScope(principal([]), undefined)).toBeNull();
    expect(resolveChannelScope(principal([]), 'chn_b')).toEqual(['chn_b']);
  });

  it('uses the only channel of a single-channel key and refuses any other', () => {
    expect(resolveChannelScope(principal(['chn_a']), undefined)).toEqual(['chn_a']);
    expect(errorOf(() => resolveChannelScope(principal(['chn_a']), 'chn_b')).code).toBe('PERMISSION_DENIED');
  });

  it('makes a multi-channel key name one of its channels', () => {
    const refusal = errorOf(() => resolveChannelScope(principal(['chn_a', 'chn_b']), undefined));
    expect(refusal.code).toBe('VALIDATION');
    expect(refusal.context).toEqual({ constraints: { channel_id: { type: 'REQUIRED', message: expect.any(String) } } });
    expect(resolveChannelScope(principal(['chn_a', 'chn_b']), 'chn_b')).toEqual(['chn_b']);
    expect(errorOf(() => resolveChannelScope(principal(['chn_a', 'chn_b']), 'chn_c')).code).toBe('PERMISSION_DENIED');
  });
});
