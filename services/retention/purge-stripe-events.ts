import { deleteInBatches } from '../batched-delete';
import { cutoff, type PurgeProgress, type PurgeResult, type RetentionDeps } from './deps';

/**
 * Deletes Stripe events applied longer ago than the retention. An event not applied yet is never
 * deleted: the sweep still has to apply it. Nor is one the sweep gave up on (`failed: …`,
 * unapplied.ts): it waits for the operator, and its row holds the only copy of what Stripe sent.
 * Stripe retries an event for up to 3 days and the retention is at least 4, so a retry still
 * finds its row and is taken for the duplicate it is. stripe_requests are kept for good: they are
 * the books of what was asked of Stripe.
 */
export function purgeStripeEvents(deps: RetentionDeps, progress: PurgeProgress): Promise<PurgeResult> {
  const before = cutoff(deps, deps.settings.stripeEventMs);
  return deleteInBatches(
    (limit) => deps.db.$executeRaw`
      DELETE FROM stripe_events
      WHERE (account_id, event_id) IN (
        SELECT account_id, event_id FROM stripe_events WHERE applied_at < ${before} AND outcome NOT LIKE 'failed:%'
        ORDER BY applied_at LIMIT ${limit}
      )`,
    progress,
    deps.settings,
  );
}
