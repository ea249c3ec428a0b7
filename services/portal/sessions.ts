import { hashDashboardToken, newDashboardToken } from '../../domain/dashboard-tokens';
import {
  PORTAL_SESSION_ABSOLUTE_MS,
  PORTAL_SESSION_IDLE_MS,
  PORTAL_SESSION_TOUCH_MS,
  type PortalLinkRefusal,
} from '../../domain/portal/session-limits';
import type { Database } from '../../prisma/client';
import type { ClientInfo } from '../dashboard/actor';
import type { PortalActor } from './actor';

export type OpenedLink = { opened: true; token: string } | { opened: false; refusal: PortalLinkRefusal };

/**
 * `GET /portal/open/<token>`: the link becomes a session at most once. The claim is one UPDATE
 * guarded by `opened_at IS NULL`, so of two opens racing only one starts a session; the loser,
 * like any later open, reads the row to say why it was refused.
 */
export async function openPortalLink(db: Database, linkToken: string, now: Date, client: ClientInfo): Promise<OpenedLink> {
  const linkHash = hashDashboardToken(linkToken);
  const row = await db.customerPortalSession.findUnique({ where: { linkHash }, select: { id: true, accountId: true, customerId: true, openedAt: true, linkExpiresAt: true } });
  if (!row) return { opened: false, refusal: 'INVALID' };
  if (row.openedAt) return { opened: false, refusal: 'USED' };
  if (row.linkExpiresAt <= now) return { opened: false, refusal: 'EXPIRED' };
  const customer = await db.customer.findFirst({ where: { id: row.customerId, accountId: row.accountId }, select: { status: true } });
  if (customer?.status !== 'ACTIVE') return { opened: false, refusal: 'CUSTOMER_REMOVED' };
  const token = newDashboardToken();
  const claimed = await db.customerPortalSession.updateMany({
    where: { id: row.id, openedAt: null, linkExpiresAt: { gt: now } },
    data: { openedAt: now, lastSeenAt: now, sessionHash: hashDashboardToken(token), ip: client.ip ?? null, userAgent: client.userAgent?.slice(0, 512) ?? null },
  });
  return claimed.count === 1 ? { opened: true, token } : { opened: false, refusal: 'USED' };
}

export interface PortalSession {
  actor: PortalActor;
  channelId: string;
  returnUrl: string | null;
  locale: string | null;
  /** When the session ends if nothing more is asked. */
  expiresAt: Date;
}

/**
 * The live portal session behind a cookie's token: opened, not ended, not idle 30 minutes, not
 * older than 12 hours, and its customer still ACTIVE (read on every request, so deactivating a
 * customer ends their portal at once).
 */
export async function resolvePortalSession(db: Database, token: string, now: Date): Promise<PortalSession | null> {
  const row = await db.customerPortalSession.findUnique({
    where: { sessionHash: hashDashboardToken(token) },
    select: { id: true, accountId: true, channelId: true, customerId: true, openedAt: true, lastSeenAt: true, endedAt: true, returnUrl: true, locale: true },
  });
  if (!row?.openedAt || !row.lastSeenAt || row.endedAt) return null;
  const idleEnd = row.lastSeenAt.getTime() + PORTAL_SESSION_IDLE_MS;
  const absoluteEnd = row.openedAt.getTime() + PORTAL_SESSION_ABSOLUTE_MS;
  if (Math.min(idleEnd, absoluteEnd) <= now.getTime()) return null;
  const customer = await db.customer.findFirst({ where: { id: row.customerId, accountId: row.accountId }, select: { status: true, email: true } });
  if (customer?.status !== 'ACTIVE') return null;
  let lastSeen = row.lastSeenAt;
  if (now.getTime() - lastSeen.getTime() >= PORTAL_SESSION_TOUCH_MS) {
    await db.customerPortalSession.updateMany({ where: { id: row.id }, data: { lastSeenAt: now } });
    lastSeen = now;
  }
  return {
    actor: { accountId: row.accountId, customerId: row.customerId, email: customer.email, sessionId: row.id },
    channelId: row.channelId,
    returnUrl: row.returnUrl,
    locale: row.locale,
    expiresAt: new Date(Math.min(lastSeen.getTime() + PORTAL_SESSION_IDLE_MS, absoluteEnd)),
  };
}

/** Signing out: the session's token stops working for good. */
export async function endPortalSession(db: Database, sessionId: string, now: Date): Promise<void> {
  await db.customerPortalSession.updateMany({ where: { id: sessionId, endedAt: null }, data: { endedAt: now } });
}
