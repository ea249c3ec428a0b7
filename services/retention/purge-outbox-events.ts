import { deleteInBatches } from '../batched-delete';
import { cutoff, type PurgeProgress, type PurgeResult, type RetentionDeps } from './deps';

/**
 * Deletes outbox events dispatched longer ago than the retention that no delivery refers to any
 * more: the deliveries go first, and only once final (purge-webhook-deliveries.ts). An event not
 * dispatched yet, or with a delivery still pending, is never deleted. A range of the
 * (dispatched_at, id) index the dispatcher already reads.
 */
export function purgeOutboxEvents(deps: RetentionDeps, progress: PurgeProgress): Promise<PurgeResult> {
  const before = cutoff(deps, deps.settings.outboxEventMs);
  return deleteInBatches(
    (limit) => deps.db.$executeRaw`
      DELETE FROM outbox_events e
      WHERE e.id IN (
        SELECT o.id FROM outbox_events o
        WHERE o.dispatched_at < ${before}
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = o.id)
        ORDER BY o.dispatched_at, o.id
        LIMIT ${limit}
      )
      AND e.dispatched_at < ${before}
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)`,
    progress,
    deps.settings,
  );
}
