import { deleteInBatches } from '../batched-delete';
import { cutoff, type PurgeProgress, type PurgeResult, type RetentionDeps } from './deps';

/**
 * Deletes the attempts of deliveries that are final (SUCCEEDED, FAILED, CANCELLED) and unchanged
 * for the retention, before the deliveries themselves (purge-webhook-deliveries.ts), so no
 * statement cascades into an unbounded number of attempts. A PENDING delivery, one still being
 * retried, keeps every attempt: list-deliveries shows them and the retry schedule goes on.
 */
export function purgeWebhookDeliveryAttempts(deps: RetentionDeps, progress: PurgeProgress): Promise<PurgeResult> {
  const before = cutoff(deps, deps.settings.webhookDeliveryMs);
  return deleteInBatches(
    (limit) => deps.db.$executeRaw`
      DELETE FROM webhook_delivery_attempts
      WHERE id IN (
        SELECT a.id FROM webhook_deliveries d JOIN webhook_delivery_attempts a ON a.delivery_id = d.id
        WHERE d.status IN ('SUCCEEDED', 'FAILED', 'CANCELLED') AND d.updated_at < ${before}
        LIMIT ${limit}
      )`,
    progress,
    deps.settings.batchSize,
  );
}
