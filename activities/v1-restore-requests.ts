import { heartbeat } from '@temporalio/activity';
import { V1_REPLAY_WINDOW_MS } from '../services/v1/seen-requests';
import type { Database } from '../prisma/client';

const BATCH = 5_000;

export function createV1RestoreRequestActivities({ db }: { db: Database }) {
  return {
    /**
     * Deletes the v1 request hashes past the replay window, in batches like the idempotency
     * purge. A request within the window is still refused, so only older rows go; a claim
     * already takes over an old row, so this only reclaims space.
     */
    async purgeExpiredV1RestoreRequests(): Promise<{ deleted: number }> {
      const cutoff = new Date(Date.now() - V1_REPLAY_WINDOW_MS);
      let deleted = 0;
      for (;;) {
        const count = await db.$executeRaw`
          DELETE FROM v1_restore_requests
          WHERE (account_id, body_hash) IN (
            SELECT account_id, body_hash FROM v1_restore_requests WHERE seen_at <= ${cutoff} LIMIT ${BATCH}
          )`;
        deleted += count;
        if (count < BATCH) return { deleted };
        heartbeat({ deleted });
      }
    },
  };
}
