import type { Database } from '../../prisma/client';
import { createInvitation } from './invitations';

export const FIRST_ADMIN_EMAIL = 'admin@localhost';

/**
 * The first start's sign-in link: an invitation for a MERCHANT_ADMIN of the oldest account,
 * made once, when the platform has neither dashboard users nor invitations (so also on the
 * first start after an upgrade). Null otherwise; `npm run operator -- invite-user` makes more.
 */
export async function inviteFirstAdmin(db: Database, now: Date, email = FIRST_ADMIN_EMAIL) {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(727002)`;
    if ((await tx.dashboardUser.count()) > 0 || (await tx.dashboardInvitation.count()) > 0) return null;
    const account = await tx.account.findFirst({ orderBy: { id: 'asc' }, select: { id: true } });
    if (!account) return null;
    return createInvitation(tx, { accountId: account.id, email, role: 'MERCHANT_ADMIN', invitedBy: null }, now);
  });
}
