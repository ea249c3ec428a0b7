import { formatDateTime } from '../../domain/datetime';
import type { DashboardRole } from '../../domain/dashboard-roles';
import type { Prisma } from '../../prisma/client';

type Db = Prisma.TransactionClient;

export const dashboardUserSelect = {
  id: true,
  accountId: true,
  email: true,
  role: true,
  totpEnabled: true,
  createdAt: true,
} as const;

export type DashboardUserRow = Prisma.DashboardUserGetPayload<{ select: typeof dashboardUserSelect }>;

/** The user object of the dashboard API (the e-mail is data: it is never interpreted). */
export function serializeDashboardUser(row: DashboardUserRow) {
  return {
    id: row.id,
    email: row.email,
    role: row.role as DashboardRole,
    account_id: row.accountId,
    created_at: formatDateTime(row.createdAt),
    totp_enabled: row.totpEnabled,
  };
}

export type DashboardUserObject = ReturnType<typeof serializeDashboardUser>;

/** Newest first, `take` rows below `beforeId` (keyset, as every list of the platform). */
export function listDashboardUsers(db: Db, accountId: string, beforeId: string | undefined, take: number) {
  return db.dashboardUser.findMany({
    where: { accountId, ...(beforeId ? { id: { lt: beforeId } } : {}) },
    orderBy: { id: 'desc' },
    take,
    select: dashboardUserSelect,
  });
}

/**
 * The account a signed-in user belongs to, as `session/me` shows it: with its channels (id and
 * name, oldest first), which the pages show by name where `/v2` answers channel ids. An
 * account has the few channels an operator made, so they come whole.
 */
export async function dashboardAccount(db: Db, accountId: string) {
  const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { id: true, name: true } });
  const channels = await db.channel.findMany({ where: { accountId }, orderBy: { id: 'asc' }, select: { id: true, name: true } });
  return { ...account, channels };
}
