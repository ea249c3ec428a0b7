import type { Database } from '../../prisma/client';
import { deleteInBatches } from '../batched-delete';
import { deleteAnswersOfRotatedOutSecrets } from './recorded-answers';

/**
 * Deletes the recorded v1 answers of secrets rotated out (docs/subscription-restore.md,
 * "Replays"), in batches like the idempotency purge: those of an overlap that ended. A rotation
 * without overlap and a revocation delete theirs at once; a lookup never answers from a dead
 * secret's record anyway, so this only reclaims space.
 */
export function purgeV1AnswersOfRotatedOutSecrets(
  deps: { db: Database; now: () => Date },
  progress: (done: { deleted: number }) => void,
): Promise<{ deleted: number }> {
  const now = deps.now();
  return deleteInBatches((limit) => deleteAnswersOfRotatedOutSecrets(deps.db, now, { limit }), progress);
}
