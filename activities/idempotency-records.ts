import { heartbeat } from '@temporalio/activity';
import type { Database } from '../prisma/client';

const BATCH = 5_000;

export function createIdempotencyRecordActivities({ db }: { db: Database }) {
  return {
    /**
     * Deletes records past their 24-hour life in batches, so one run never holds a long lock
     * or a huge transaction. Lookups already ignore expired records; this only reclaims space.
     */
    async purgeExpiredIdempotencyRecords(): Promise<{ deleted: number }> {
      let deleted = 0;
      for (;;) {
        const count = await db.$executeRaw`
          DELETE FROM idempotency_records
          WHERE (api_key_id, key) IN (
            SELECT api_key_id, key FROM idempotency_records WHERE expires_at <= now() LIMIT ${BATCH}
          )`;
        deleted += count;
        if (count < BATCH) return { deleted };
        heartbeat({ deleted });
      }
    },
  };
}
