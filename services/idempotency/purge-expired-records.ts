import type { Database } from '../../prisma/client';

const BATCH = 5_000;

/**
 * Deletes idempotency records past their 24-hour life in batches, so one run never holds a long
 * lock or a huge transaction; `progress` hears the count after each full batch. Lookups already
 * ignore expired records; this only reclaims space.
 */
export async function purgeExpiredIdempotencyRecords(deps: { db: Database }, progress: (done: { deleted: number }) => void): Promise<{ deleted: number }> {
  let deleted = 0;
  for (;;) {
    const count = await deps.db.$executeRaw`
      DELETE FROM idempotency_records
      WHERE (api_key_id, key) IN (
        SELECT api_key_id, key FROM idempotency_records WHERE expires_at <= now() LIMIT ${BATCH}
      )`;
    deleted += count;
    if (count < BATCH) return { deleted };
    progress({ deleted });
  }
}
