import { DASHBOARD_ROLES, isDashboardRole } from '../../domain/dashboard-roles';
import type { Database } from '../../prisma/client';
import { createInvitation } from '../../services/dashboard/invitations';

/**
 * `invite-user`: the same invitation an admin makes on the Team page, for when nobody can sign
 * in yet (or the first start's link expired). The link is printed once; no e-mail is sent.
 */
export async function inviteDashboardUser(db: Database, input: { accountId: string; email: string; role: string }) {
  if (!isDashboardRole(input.role)) throw new Error(`--role is one of ${DASHBOARD_ROLES.join(', ')}, not ${input.role}.`);
  const invitation = await createInvitation(db, { accountId: input.accountId, email: input.email, role: input.role, invitedBy: null }, new Date());
  return { id: invitation.id, email: invitation.email, role: invitation.role, url: invitation.url, expires_at: invitation.expiresAt.toISOString() };
}
