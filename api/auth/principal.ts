import type { Permission } from '../../domain/permissions';

/** Who is calling: the API key behind the presented secret. */
export interface Principal {
  accountId: string;
  apiKeyId: string;
  /** Empty for an account-level key, which reaches every channel. */
  channelIds: string[];
  permissions: ReadonlySet<Permission | string>;
}

export { isAccountLevel } from '../../domain/channel-scope';
