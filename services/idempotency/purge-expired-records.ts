import type { Database } from '../../prisma/client';
import { deleteInBatches, type BatchPacing } from '../batched-delete';

/**
 * Deletes idempotency records past their 24-hour life in batches. Lookups already ignore
 * expired records; this only reclaims space.
 */
export function purgeExpiredIdempotencyRecords(
  deps: { db: Database },
  progress: (done: { deleted: number }) => void,
  pacing?: BatchPacing,
): Promise<{ deleted: number; batches: number }> {
  return deleteInBatches(
    (limit) => deps.db.$executeRaw`
      DELETE FROM idempotency_records
      WHERE (api_key_id, key) IN (
        SELECT api_key_id, key FROM idempotency_records WHERE expires_at <= now() ORDER BY expires_at LIMIT ${limit}
      )`,
    progress,
    pacing,
  );
}
