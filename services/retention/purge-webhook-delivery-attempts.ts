import { deleteInBatches } from '../batched-delete';
import { cutoff, type PurgeProgress, type PurgeResult, type RetentionDeps } from './deps';

interface Batch {
  deleted: number;
  /** As text: a Date would drop the microseconds, and the next batch would start before its row. */
  last_updated_at: string | null;
  last_id: string | null;
}

/**
 * Deletes the attempts of deliveries that are final (SUCCEEDED, FAILED, CANCELLED) and unchanged
 * for the retention, before the deliveries themselves (purge-webhook-deliveries.ts), so no
 * statement cascades into an unbounded number of attempts. A PENDING delivery, one still being
 * retried, keeps every attempt: list-deliveries shows them and the retry schedule goes on.
 *
 * The deliveries stay until the next step, so each batch starts where the last one ended (by the
 * `(updated_at, id)` index, at the last delivery it touched, whose other attempts may be left):
 * without it every batch would walk again over the deliveries already emptied.
 */
export function purgeWebhookDeliveryAttempts(deps: RetentionDeps, progress: PurgeProgress): Promise<PurgeResult> {
  const before = cutoff(deps, deps.settings.webhookDeliveryMs);
  let from = { updatedAt: '-infinity', id: '' };
  return deleteInBatches(async (limit) => {
    const [batch] = await deps.db.$queryRaw<Batch[]>`
      WITH picked AS (
        SELECT a.id, d.updated_at, d.id AS delivery_id
        FROM webhook_deliveries d JOIN webhook_delivery_attempts a ON a.delivery_id = d.id
        WHERE d.updated_at < ${before} AND (d.updated_at, d.id) >= (${from.updatedAt}::timestamptz, ${from.id})
          AND d.status IN ('SUCCEEDED', 'FAILED', 'CANCELLED')
        ORDER BY d.updated_at, d.id
        LIMIT ${limit}
      ), gone AS (
        DELETE FROM webhook_delivery_attempts WHERE id IN (SELECT id FROM picked) RETURNING id
      ), last AS (
        SELECT updated_at, delivery_id FROM picked ORDER BY updated_at DESC, delivery_id DESC LIMIT 1
      )
      SELECT (SELECT count(*) FROM gone)::int AS deleted, (SELECT updated_at::text FROM last) AS last_updated_at, (SELECT delivery_id FROM last) AS last_id`;
    if (batch!.last_updated_at) from = { updatedAt: batch!.last_updated_at, id: batch!.last_id! };
    return batch!.deleted;
  }, progress, deps.settings);
}
