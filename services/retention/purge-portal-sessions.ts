import { deleteInBatches } from '../batched-delete';
import { cutoff, type PurgeProgress, type PurgeResult, type RetentionDeps } from './deps';

/**
 * Deletes customer portal links, and the sessions they opened, made longer ago than the retention.
 * A link opens within 10 minutes of its creation and its session ends 12 hours after opening at
 * the latest (domain/portal/session-limits.ts), and the retention is at least a day: so every row
 * old enough is one that can no longer be used, ended, expired or never opened.
 */
export function purgeCustomerPortalSessions(deps: RetentionDeps, progress: PurgeProgress): Promise<PurgeResult> {
  const before = cutoff(deps, deps.settings.portalSessionMs);
  return deleteInBatches(
    (limit) => deps.db.$executeRaw`
      DELETE FROM customer_portal_sessions
      WHERE id IN (SELECT id FROM customer_portal_sessions WHERE created_at < ${before} ORDER BY created_at LIMIT ${limit})`,
    progress,
    deps.settings,
  );
}
