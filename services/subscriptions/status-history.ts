import { formatDateTime } from '../../domain/datetime';
import type { SubscriptionStatus } from '../../domain/subscription-status';
import type { StatusChangeCause } from '../../domain/subscriptions/status-change-cause';
import type { Prisma } from '../../prisma/client';
import type { Scope } from '../scope';
import { visibleSubscription } from './visible';

export interface StatusChangeRow {
  id: string;
  subscriptionId: string;
  fromStatus: string | null;
  toStatus: string;
  cause: string | null;
  occurredAt: Date;
}

export interface StatusChangeObject {
  id: string;
  subscription_id: string;
  from_status?: SubscriptionStatus;
  to_status: SubscriptionStatus;
  cause?: StatusChangeCause;
  occurred_at: string;
}

/**
 * One page of a visible subscription's status history, newest first by the subscription's
 * version (the order its changes were made in, whichever process made them): `take` changes
 * older than the one `beforeId` names. Outside the scope or unknown: 404, as subscriptions/get.
 */
export async function listStatusChanges(
  db: Prisma.TransactionClient,
  scope: Scope,
  query: { subscriptionId: string; beforeId?: string; take: number },
): Promise<StatusChangeRow[]> {
  const subscription = await visibleSubscription(db, scope, query.subscriptionId);
  const before = query.beforeId
    ? await db.subscriptionStatusChange.findFirst({ where: { id: query.beforeId, subscriptionId: subscription.id }, select: { version: true } })
    : null;
  if (query.beforeId && !before) return [];
  return db.subscriptionStatusChange.findMany({
    where: { subscriptionId: subscription.id, ...(before ? { version: { lt: before.version } } : {}) },
    orderBy: { version: 'desc' },
    take: query.take,
  });
}

export function serializeStatusChange(row: StatusChangeRow): StatusChangeObject {
  return {
    id: row.id,
    subscription_id: row.subscriptionId,
    ...(row.fromStatus !== null ? { from_status: row.fromStatus as SubscriptionStatus } : {}),
    to_status: row.toStatus as SubscriptionStatus,
    ...(row.cause !== null ? { cause: row.cause as StatusChangeCause } : {}),
    occurred_at: formatDateTime(row.occurredAt),
  };
}
