import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../domain/subscription-status';
import type { Database } from '../../prisma/client';

/** How far back a delivery that gave up (FAILED) still counts: long enough for a daily look, short enough to clear once fixed. */
export const FAILED_DELIVERY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface EndpointDeliveries {
  endpointId: string;
  /** Not yet delivered (PENDING), first attempts included. */
  pending: number;
  /** PENDING after at least one failed attempt: retrying now. */
  failing: number;
  /** Gave up (FAILED) within FAILED_DELIVERY_WINDOW_MS. */
  failedRecently: number;
}

export interface BusinessGauges {
  /** Age of the oldest outbox event not yet dispatched to webhooks, 0 when none waits. */
  outboxLagSeconds: number;
  outboxUndispatched: number;
  webhookDeliveries: EndpointDeliveries[];
  invoicesInDunning: number;
  subscriptionsByStatus: Record<SubscriptionStatus, number>;
}

/**
 * The state an operator alerts on (docs/operators.md, "Metrics"), read at scrape time. The
 * outbox and delivery queries use their queue indexes; invoices in DUNNING and subscriptions by
 * status are counts over their tables, cheap at the minute-scale intervals Prometheus scrapes.
 */
export async function readBusinessGauges(db: Database, now: Date): Promise<BusinessGauges> {
  const failedSince = new Date(now.getTime() - FAILED_DELIVERY_WINDOW_MS);
  const [oldest, outboxUndispatched, deliveries, invoicesInDunning, subscriptions] = await Promise.all([
    // The earliest commit time, not the lowest id: ids are monotonic per process, so across processes and clocks id order is not commit order.
    db.outboxEvent.aggregate({ where: { dispatchedAt: null }, _min: { createdAt: true } }),
    db.outboxEvent.count({ where: { dispatchedAt: null } }),
    db.$queryRaw<Array<{ endpoint_id: string; pending: number; failing: number; failed_recently: number }>>`
      SELECT endpoint_id,
             count(*) FILTER (WHERE status = 'PENDING')::int AS pending,
             count(*) FILTER (WHERE status = 'PENDING' AND attempt_count > 0)::int AS failing,
             count(*) FILTER (WHERE status = 'FAILED')::int AS failed_recently
        FROM webhook_deliveries
       WHERE status = 'PENDING' OR (status = 'FAILED' AND updated_at > ${failedSince})
       GROUP BY endpoint_id`,
    db.invoice.count({ where: { status: 'DUNNING' } }),
    db.subscription.groupBy({ by: ['status'], _count: { _all: true } }),
  ]);
  const subscriptionsByStatus = Object.fromEntries(SUBSCRIPTION_STATUSES.map((status) => [status, 0])) as Record<SubscriptionStatus, number>;
  for (const row of subscriptions) subscriptionsByStatus[row.status as SubscriptionStatus] = row._count._all;
  return {
    outboxLagSeconds: oldest._min.createdAt ? Math.max(0, (now.getTime() - oldest._min.createdAt.getTime()) / 1000) : 0,
    outboxUndispatched,
    webhookDeliveries: deliveries.map((row) => ({ endpointId: row.endpoint_id, pending: row.pending, failing: row.failing, failedRecently: row.failed_recently })),
    invoicesInDunning,
    subscriptionsByStatus,
  };
}
