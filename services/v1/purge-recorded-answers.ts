import type { Database } from '../../prisma/client';
import { deleteInBatches } from '../batched-delete';
import { V1_REPLAY_WINDOW_MS } from './seen-requests';

/**
 * Deletes the v1 request hashes past the replay window, in batches like the idempotency
 * purge. A request within the window is still refused, so only older rows go; a claim
 * already takes over an old row, so this only reclaims space.
 */
export function purgeExpiredV1RestoreRequests(
  deps: { db: Database; now: () => Date },
  progress: (done: { deleted: number }) => void,
): Promise<{ deleted: number }> {
  const cutoff = new Date(deps.now().getTime() - V1_REPLAY_WINDOW_MS);
  return deleteInBatches(
    (limit) => deps.db.$executeRaw`
      DELETE FROM v1_restore_requests
      WHERE (account_id, body_hash) IN (
        SELECT account_id, body_hash FROM v1_restore_requests WHERE seen_at <= ${cutoff} LIMIT ${limit}
      )`,
    progress,
  );
}
