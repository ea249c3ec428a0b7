/**
 * A customer acting in the customer portal (docs/portal.md): the account and customer the portal
 * session was opened for, and that session (`cps_…`). Changes it makes are audited as the
 * customer's.
 */
export interface PortalActor {
  accountId: string;
  customerId: string;
  /** The customer's e-mail when the session resolved, copied into the audit log. */
  email: string;
  sessionId: string;
}
