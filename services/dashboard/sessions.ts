import { isDashboardRole } from '../../domain/dashboard-roles';
import { hashDashboardToken, newDashboardToken } from '../../domain/dashboard-tokens';
import { newId } from '../../domain/ids';
import type { Database, Prisma } from '../../prisma/client';
import type { ClientInfo, DashboardActor } from './actor';
import { dashboardSettings } from './config';
import { dashboardUserSelect, type DashboardUserRow } from './users';

/** lastSeenAt moves at most this often, so a busy page does not write on every request. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * A new session for `userId`; the token (the cookie's value) is returned once, only its hash is
 * stored. Called on every sign-in, so a session token planted before sign-in is never the one used
 * after it.
 */
export async function startSession(tx: Prisma.TransactionClient, userId: string, now: Date, client: ClientInfo) {
  const token = newDashboardToken();
  const settings = dashboardSettings();
  const session = await tx.dashboardSession.create({
    data: {
      id: newId('dashboardSession', now.getTime()),
      userId,
      tokenHash: hashDashboardToken(token),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + settings.sessionAbsoluteMs),
      ip: client.ip ?? null,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
    },
    select: { id: true },
  });
  return { token, sessionId: session.id };
}

export interface ResolvedSession {
  actor: DashboardActor;
  user: DashboardUserRow;
}

/**
 * The session a cookie's token names, if it is still alive: not idle longer than the idle limit,
 * not older than the absolute limit. An expired session is deleted as it is found. The user is
 * read with it on every request, so a removed user or a changed role takes effect at once.
 */
export async function resolveSession(db: Database, token: string, now: Date): Promise<ResolvedSession | null> {
  const session = await db.dashboardSession.findUnique({
    where: { tokenHash: hashDashboardToken(token) },
    select: { id: true, lastSeenAt: true, expiresAt: true, user: { select: dashboardUserSelect } },
  });
  if (!session) return null;
  const idleUntil = session.lastSeenAt.getTime() + dashboardSettings().sessionIdleMs;
  if (session.expiresAt <= now || idleUntil <= now.getTime()) {
    await db.dashboardSession.deleteMany({ where: { id: session.id } });
    return null;
  }
  if (!isDashboardRole(session.user.role)) return null;
  if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
    await db.dashboardSession.updateMany({ where: { id: session.id }, data: { lastSeenAt: now } });
  }
  const { user } = session;
  return {
    user,
    actor: { userId: user.id, email: user.email, role: user.role as DashboardActor['role'], accountId: user.accountId, sessionId: session.id },
  };
}

/**
 * Sessions past either expiry that nobody presented again. Run at each sign-in, which is rare
 * next to other requests, so the table holds live sessions and few others without a job of its own.
 */
export async function purgeExpiredSessions(tx: Prisma.TransactionClient, now: Date): Promise<void> {
  const idleSince = new Date(now.getTime() - dashboardSettings().sessionIdleMs);
  await tx.dashboardSession.deleteMany({ where: { OR: [{ expiresAt: { lte: now } }, { lastSeenAt: { lte: idleSince } }] } });
}

/** Sign-out: the session's row is gone, so the cookie is worthless even if it was copied. */
export async function endSession(db: Database | Prisma.TransactionClient, token: string): Promise<void> {
  await db.dashboardSession.deleteMany({ where: { tokenHash: hashDashboardToken(token) } });
}
