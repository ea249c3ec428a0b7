import { deleteInBatches } from '../batched-delete';
import { cutoff, type PurgeProgress, type PurgeResult, type RetentionDeps } from './deps';

/**
 * Deletes final deliveries unchanged for the retention whose attempts are already gone
 * (purge-webhook-delivery-attempts.ts runs first). The status and age are checked again on the
 * row the DELETE locks: a redelivery that made one PENDING meanwhile keeps it.
 */
export function purgeWebhookDeliveries(deps: RetentionDeps, progress: PurgeProgress): Promise<PurgeResult> {
  const before = cutoff(deps, deps.settings.webhookDeliveryMs);
  return deleteInBatches(
    (limit) => deps.db.$executeRaw`
      DELETE FROM webhook_deliveries
      WHERE id IN (
        SELECT d.id FROM webhook_deliveries d
        WHERE d.status IN ('SUCCEEDED', 'FAILED', 'CANCELLED') AND d.updated_at < ${before}
          AND NOT EXISTS (SELECT 1 FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id)
        LIMIT ${limit}
      )
      AND status IN ('SUCCEEDED', 'FAILED', 'CANCELLED') AND updated_at < ${before}`,
    progress,
    deps.settings.batchSize,
  );
}
