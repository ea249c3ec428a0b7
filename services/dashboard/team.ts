import { ApiError } from '../../domain/errors';
import type { DashboardRole } from '../../domain/dashboard-roles';
import type { Database, Prisma } from '../../prisma/client';
import { activeKeysIssuedBy, revokeKeysIssuedBy } from '../api-keys/issued-keys';
import { lockAccountUsers, requireStillAdmin } from './account-users-lock';
import type { DashboardActor } from './actor';
import { createInvitation } from './invitations';
import { deletePasswordResetsBy } from './password-resets';
import { revokeInvitationsBy } from './pending-invitations';
import { dashboardUserSelect } from './users';

async function targetIn(tx: Prisma.TransactionClient, accountId: string, userId: string) {
  const user = await tx.dashboardUser.findFirst({ where: { id: userId, accountId }, select: dashboardUserSelect });
  if (!user) throw ApiError.notFound('User', userId);
  return user;
}

async function requireAnotherAdmin(tx: Prisma.TransactionClient, accountId: string, userId: string): Promise<void> {
  const others = await tx.dashboardUser.count({ where: { accountId, role: 'MERCHANT_ADMIN', id: { not: userId } } });
  if (others === 0) throw new ApiError('LAST_ADMIN', 'The account would have no MERCHANT_ADMIN left.', { user_id: userId });
}

/**
 * Takes effect on the user's next request: sessions read the role each time. An admin demoted
 * loses the invitations and the reset links they made that are still usable.
 */
export async function updateUserRole(db: Database, actor: DashboardActor, userId: string, role: DashboardRole, now: Date) {
  return db.$transaction(async (tx) => {
    await lockAccountUsers(tx, actor.accountId);
    const target = await targetIn(tx, actor.accountId, userId);
    if (target.role === 'MERCHANT_ADMIN' && role !== 'MERCHANT_ADMIN') {
      await requireAnotherAdmin(tx, actor.accountId, userId);
      await revokeInvitationsBy(tx, userId, now);
      await deletePasswordResetsBy(tx, userId);
    }
    return tx.dashboardUser.update({ where: { id: userId }, data: { role, updatedAt: now }, select: dashboardUserSelect });
  });
}

/**
 * The user and (by the foreign key's cascade) every session and reset link of theirs go in one
 * statement; the invitations they made that are still pending are revoked with them, the reset
 * links they made for others deleted, and, when asked, the API keys whose current secret they saw. Returns the ids of the keys revoked.
 */
export async function removeUser(db: Database, actor: DashboardActor, userId: string, now: Date, options: { revokeApiKeys: boolean }): Promise<string[]> {
  return db.$transaction(async (tx) => {
    await lockAccountUsers(tx, actor.accountId);
    const target = await targetIn(tx, actor.accountId, userId);
    if (target.role === 'MERCHANT_ADMIN') await requireAnotherAdmin(tx, actor.accountId, userId);
    await revokeInvitationsBy(tx, userId, now);
    await deletePasswordResetsBy(tx, userId);
    const revokedKeys = options.revokeApiKeys ? await revokeKeysIssuedBy(tx, actor.accountId, userId, now) : [];
    await tx.dashboardUser.delete({ where: { id: userId } });
    return revokedKeys;
  });
}

/**
 * users/invite: under the lock removal and demotion take, with the inviter's role read again, so
 * an invitation made while its inviter is removed or demoted is refused or revoked with the rest.
 */
export async function inviteMember(db: Database, actor: DashboardActor, invitee: { email: string; role: DashboardRole }, now: Date) {
  return db.$transaction(async (tx) => {
    await lockAccountUsers(tx, actor.accountId);
    await requireStillAdmin(tx, actor);
    return createInvitation(tx, { accountId: actor.accountId, email: invitee.email, role: invitee.role, invitedBy: actor.userId }, now);
  });
}

/** What users/remove offers to revoke with the user: their ACTIVE keys (404 for a user of another account). */
export async function keysIssuedByMember(db: Database, actor: DashboardActor, userId: string) {
  await targetIn(db, actor.accountId, userId);
  return activeKeysIssuedBy(db, actor.accountId, userId);
}
