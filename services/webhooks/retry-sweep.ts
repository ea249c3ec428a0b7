import type { Database } from '../../prisma/client';
import type { RetryToStart } from './sender-record';

/**
 * Deliveries handed to their retry workflow whose next attempt is overdue by more than the grace
 * (docs/webhooks.md, "Delivery"): the sender committed the hand-over, then perhaps died before
 * starting the workflow. Starting them again is harmless for a workflow still running (it is kept)
 * and recovers one that never started or ended early.
 */
export async function overdueRetries(db: Database, cutoff: Date, limit: number): Promise<RetryToStart[]> {
  const rows = await db.webhookDelivery.findMany({
    where: { status: 'PENDING', handler: 'RETRY', nextAttemptAt: { lt: cutoff } },
    select: { accountId: true, eventId: true, endpointId: true, attemptCount: true, nextAttemptAt: true },
    orderBy: { nextAttemptAt: 'asc' },
    take: limit,
  });
  return rows.map((r) => ({ accountId: r.accountId, eventId: r.eventId, endpointId: r.endpointId, firstAttempt: r.attemptCount + 1, claim: r.nextAttemptAt!.toISOString() }));
}
