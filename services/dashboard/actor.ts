import type { DashboardRole } from '../../domain/dashboard-roles';

/** The signed-in user a dashboard action is made by. */
export interface DashboardActor {
  userId: string;
  email: string;
  role: DashboardRole;
  accountId: string;
  sessionId: string;
}

/** Where a request came from, for the audit log and the sign-in throttle. */
export interface ClientInfo {
  ip?: string;
  userAgent?: string;
}
