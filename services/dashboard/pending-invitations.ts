import { formatDateTime } from '../../domain/datetime';
import type { DashboardRole } from '../../domain/dashboard-roles';
import { ApiError } from '../../domain/errors';
import type { Database, Prisma } from '../../prisma/client';
import type { DashboardActor } from './actor';
import { pendingAt } from './invitations';

const pendingSelect = { id: true, email: true, role: true, invitedBy: true, createdAt: true, expiresAt: true } as const;

/** The account's links that still work, newest first, `take` below `beforeId`. */
export function listPendingInvitations(db: Database, accountId: string, now: Date, beforeId: string | undefined, take: number) {
  return db.dashboardInvitation.findMany({
    where: { accountId, ...pendingAt(now), ...(beforeId ? { id: { lt: beforeId } } : {}) },
    orderBy: { id: 'desc' },
    take,
    select: pendingSelect,
  });
}

export function serializePendingInvitation(row: Awaited<ReturnType<typeof listPendingInvitations>>[number]) {
  return {
    id: row.id,
    email: row.email,
    role: row.role as DashboardRole,
    invited_by: row.invitedBy,
    created_at: formatDateTime(row.createdAt),
    expires_at: formatDateTime(row.expiresAt),
  };
}

/**
 * The link stops working at once. One of another account is 404; one already accepted, revoked
 * or expired is 422 INVITATION_INVALID with its reason, as the link itself would answer.
 */
export async function revokeInvitation(db: Database, actor: DashboardActor, invitationId: string, now: Date): Promise<void> {
  const revoked = await db.dashboardInvitation.updateMany({
    where: { id: invitationId, accountId: actor.accountId, ...pendingAt(now) },
    data: { revokedAt: now },
  });
  if (revoked.count === 1) return;
  const found = await db.dashboardInvitation.findFirst({ where: { id: invitationId, accountId: actor.accountId }, select: { acceptedAt: true, revokedAt: true } });
  if (!found) throw ApiError.notFound('Invitation', invitationId);
  const reason = found.acceptedAt ? 'USED' : found.revokedAt ? 'REVOKED' : 'EXPIRED';
  throw new ApiError('INVITATION_INVALID', `This invitation can no longer be revoked: ${reason.toLowerCase()}.`, { reason });
}

/**
 * Links an admin made die when they stop being one (removed or demoted): what they handed out
 * should not outlive the trust it came from.
 */
export async function revokeInvitationsBy(tx: Prisma.TransactionClient, userId: string, now: Date): Promise<void> {
  await tx.dashboardInvitation.updateMany({ where: { invitedBy: userId, ...pendingAt(now) }, data: { revokedAt: now } });
}
