import { formatDateTime } from '../../domain/datetime';
import { newId } from '../../domain/ids';
import type { Database, Prisma } from '../../prisma/client';
import type { PortalActor } from '../portal/actor';
import type { ClientInfo, DashboardActor } from './actor';

export interface AuditedAction {
  /** `invoices/void` for a /v2 operation, `users/invite` for a dashboard one. */
  action: string;
  objectId?: string;
  at: Date;
}

/** `USER`: a dashboard user; `CUSTOMER`: a customer in the customer portal (docs/portal.md). */
export type AuditActorType = 'USER' | 'CUSTOMER';

/** Who an entry names: a dashboard user (`usr_…`), or a customer (`cust_…`) acting in the portal. */
export interface AuditActor extends Pick<DashboardActor, 'userId' | 'email' | 'accountId'> {
  actorType?: AuditActorType;
}

export function auditActorOf(actor: DashboardActor | PortalActor): AuditActor {
  return 'customerId' in actor
    ? { actorType: 'CUSTOMER', userId: actor.customerId, email: actor.email, accountId: actor.accountId }
    : { actorType: 'USER', userId: actor.userId, email: actor.email, accountId: actor.accountId };
}

/** Who did what to which object, when and from where; the user's e-mail is copied so the entry outlives the user. */
export async function recordAudit(
  db: Database | Prisma.TransactionClient,
  actor: AuditActor,
  client: ClientInfo,
  entry: AuditedAction,
): Promise<void> {
  await db.dashboardAuditEntry.create({
    data: {
      id: newId('dashboardAuditEntry', entry.at.getTime()),
      accountId: actor.accountId,
      actorType: actor.actorType ?? 'USER',
      userId: actor.userId,
      userEmail: actor.email,
      action: entry.action,
      objectId: entry.objectId ?? null,
      ip: client.ip ?? null,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      createdAt: entry.at,
    },
  });
}

export interface AuditFilters {
  userId?: string;
  action?: string;
  objectId?: string;
  from?: Date;
  to?: Date;
}

const auditSelect = { id: true, actorType: true, userId: true, userEmail: true, action: true, objectId: true, ip: true, userAgent: true, createdAt: true } as const;

/** Newest first, `take` entries below `beforeId`; `from` inclusive, `to` exclusive. */
export function listAuditEntries(db: Database, accountId: string, filters: AuditFilters, beforeId: string | undefined, take: number) {
  return db.dashboardAuditEntry.findMany({
    where: {
      accountId,
      ...(filters.userId ? { userId: filters.userId } : {}),
      ...(filters.action ? { action: filters.action } : {}),
      ...(filters.objectId ? { objectId: filters.objectId } : {}),
      ...(filters.from || filters.to ? { createdAt: { ...(filters.from ? { gte: filters.from } : {}), ...(filters.to ? { lt: filters.to } : {}) } } : {}),
      ...(beforeId ? { id: { lt: beforeId } } : {}),
    },
    orderBy: { id: 'desc' },
    take,
    select: auditSelect,
  });
}

export function serializeAuditEntry(row: Awaited<ReturnType<typeof listAuditEntries>>[number]) {
  return {
    id: row.id,
    actor_type: row.actorType as AuditActorType,
    user_id: row.userId,
    user_email: row.userEmail,
    action: row.action,
    object_id: row.objectId,
    ip: row.ip,
    user_agent: row.userAgent,
    created_at: formatDateTime(row.createdAt),
  };
}
