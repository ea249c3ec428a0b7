import { deleteInBatches } from '../batched-delete';
import { cutoff, type PurgeProgress, type PurgeResult, type RetentionDeps } from './deps';

interface Batch {
  deleted: number;
  scanned: number;
  /** As text: a Date would drop the microseconds, and the next batch would start before its row. */
  last_updated_at: string | null;
  last_id: string | null;
}

/**
 * Deletes final deliveries unchanged for the retention whose attempts are already gone
 * (purge-webhook-delivery-attempts.ts runs first). The status and age are checked again on the
 * row the DELETE locks: a redelivery that made one PENDING meanwhile keeps it.
 *
 * Each batch takes the next `limit` final deliveries of the `(updated_at, id)` range after the
 * last batch's, and deletes those without attempts; the attempts are counted per delivery (a
 * scalar subquery the planner keeps per row), since as an anti-join over statistics that still
 * count the attempts just deleted, it would hash the whole attempts table on every batch.
 */
export function purgeWebhookDeliveries(deps: RetentionDeps, progress: PurgeProgress): Promise<PurgeResult> {
  const before = cutoff(deps, deps.settings.webhookDeliveryMs);
  let after = { updatedAt: '-infinity', id: '' };
  return deleteInBatches(async (limit) => {
    const [batch] = await deps.db.$queryRaw<Batch[]>`
      WITH candidates AS (
        SELECT d.id, d.updated_at FROM webhook_deliveries d
        WHERE d.updated_at < ${before} AND (d.updated_at, d.id) > (${after.updatedAt}::timestamptz, ${after.id})
          AND d.status IN ('SUCCEEDED', 'FAILED', 'CANCELLED')
        ORDER BY d.updated_at, d.id
        LIMIT ${limit}
      ), gone AS (
        DELETE FROM webhook_deliveries x USING candidates c
        WHERE x.id = c.id AND x.status IN ('SUCCEEDED', 'FAILED', 'CANCELLED') AND x.updated_at < ${before}
          AND (SELECT count(*) FROM webhook_delivery_attempts a WHERE a.delivery_id = c.id) = 0
        RETURNING x.id
      ), last AS (
        SELECT updated_at, id FROM candidates ORDER BY updated_at DESC, id DESC LIMIT 1
      )
      SELECT (SELECT count(*) FROM gone)::int AS deleted, (SELECT count(*) FROM candidates)::int AS scanned,
        (SELECT updated_at::text FROM last) AS last_updated_at, (SELECT id FROM last) AS last_id`;
    if (batch!.last_updated_at) after = { updatedAt: batch!.last_updated_at, id: batch!.last_id! };
    return { deleted: batch!.deleted, scanned: batch!.scanned };
  }, progress, deps.settings);
}
