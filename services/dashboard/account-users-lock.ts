import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import type { DashboardActor } from './actor';

/**
 * The account's users locked for a change of roles or of what an admin hands out, so two admins
 * demoting each other at the same moment cannot leave the account with none, and a link an admin
 * makes while being removed or demoted commits either before the revocation (which then takes it)
 * or not at all.
 */
export async function lockAccountUsers(tx: Prisma.TransactionClient, accountId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM dashboard_users WHERE account_id = ${accountId} FOR UPDATE`;
}

/**
 * The session's role was read before the lock was taken: read again under it, as it is now.
 * Removed: 401, as their next request; demoted: 403, as the route would have answered.
 */
export async function requireStillAdmin(tx: Prisma.TransactionClient, actor: DashboardActor): Promise<void> {
  const user = await tx.dashboardUser.findFirst({ where: { id: actor.userId, accountId: actor.accountId }, select: { role: true } });
  if (!user) throw new ApiError('UNAUTHENTICATED', 'This dashboard user has been removed.');
  if (user.role !== 'MERCHANT_ADMIN') throw new ApiError('PERMISSION_DENIED', 'Only a MERCHANT_ADMIN may do this.', { role: user.role });
}
