import type { Permission } from '../../domain/permissions';
import type { DashboardActor } from '../../services/dashboard/actor';
import type { PortalActor } from '../../services/portal/actor';

/**
 * Who is calling: the API key behind the presented secret, or a dashboard user's session. For a
 * session, `apiKeyId` is the user's id, so rate limits and Idempotency-Keys are per user.
 */
export interface Principal {
  accountId: string;
  apiKeyId: string;
  /** Empty for an account-level key, which reaches every channel. */
  channelIds: string[];
  permissions: ReadonlySet<Permission | string>;
  /** Set when a dashboard session calls: account level, the role's permissions, changes audited. */
  user?: DashboardActor;
  /** Set when a customer calls through the customer portal (api/portal/): one customer, its changes audited as the customer's. */
  customer?: PortalActor;
}

export { isAccountLevel } from '../../domain/channel-scope';
