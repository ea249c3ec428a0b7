import { deleteInBatches } from '../batched-delete';
import type { PurgeProgress, PurgeResult, RetentionDeps } from './deps';

/**
 * Deletes rate-limit buckets (RATE_LIMIT_STORE=postgres) untouched for the retention: by then a
 * bucket has refilled to its burst, and a missing one starts full, so nothing changes for the
 * key. The age is checked again on the locked row, so a take that just refreshed a bucket keeps it.
 * No index: the table holds one row per key and operation, and an index on a column every request
 * updates would cost each request a write.
 */
export function purgeRateLimitBuckets(deps: RetentionDeps, progress: PurgeProgress): Promise<PurgeResult> {
  const beforeMs = deps.now().getTime() - deps.settings.rateLimitBucketMs;
  return deleteInBatches(
    (limit) => deps.db.$executeRaw`
      DELETE FROM rate_limit_buckets
      WHERE id IN (SELECT id FROM rate_limit_buckets WHERE updated_at_ms < ${beforeMs}::float8 LIMIT ${limit})
        AND updated_at_ms < ${beforeMs}::float8`,
    progress,
    deps.settings,
  );
}
