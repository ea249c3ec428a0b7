import { formatDateTime } from '../../domain/datetime';
import { newId } from '../../domain/ids';
import type { Database, Prisma } from '../../prisma/client';
import type { ClientInfo, DashboardActor } from './actor';

export interface AuditedAction {
  /** `invoices/void` for a /v2 operation, `users/invite` for a dashboard one. */
  action: string;
  objectId?: string;
  at: Date;
}

/** Who did what to which object, when and from where; the user's e-mail is copied so the entry outlives the user. */
export async function recordAudit(
  db: Database | Prisma.TransactionClient,
  actor: Pick<DashboardActor, 'userId' | 'email' | 'accountId'>,
  client: ClientInfo,
  entry: AuditedAction,
): Promise<void> {
  await db.dashboardAuditEntry.create({
    data: {
      id: newId('dashboardAuditEntry', entry.at.getTime()),
      accountId: actor.accountId,
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

const auditSelect = { id: true, userId: true, userEmail: true, action: true, objectId: true, ip: true, userAgent: true, createdAt: true } as const;

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
    user_id: row.userId,
    user_email: row.userEmail,
    action: row.action,
    object_id: row.objectId,
    ip: row.ip,
    user_agent: row.userAgent,
    created_at: formatDateTime(row.createdAt),
  };
}
