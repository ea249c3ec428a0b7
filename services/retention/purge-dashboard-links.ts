import { deleteInBatches } from '../batched-delete';
import { cutoff, type PurgeProgress, type PurgeResult, type RetentionDeps } from './deps';

/**
 * Single-use dashboard links past their expiry by more than the retention: accepted, used, revoked
 * or never used, none can be used again (an unknown token is refused as an expired one is).
 */
export function purgeDashboardInvitations(deps: RetentionDeps, progress: PurgeProgress): Promise<PurgeResult> {
  const before = cutoff(deps, deps.settings.dashboardLinkMs);
  return deleteInBatches(
    (limit) => deps.db.$executeRaw`
      DELETE FROM dashboard_invitations
      WHERE id IN (SELECT id FROM dashboard_invitations WHERE expires_at < ${before} ORDER BY expires_at LIMIT ${limit})`,
    progress,
    deps.settings,
  );
}

export function purgeDashboardPasswordResets(deps: RetentionDeps, progress: PurgeProgress): Promise<PurgeResult> {
  const before = cutoff(deps, deps.settings.dashboardLinkMs);
  return deleteInBatches(
    (limit) => deps.db.$executeRaw`
      DELETE FROM dashboard_password_resets
      WHERE id IN (SELECT id FROM dashboard_password_resets WHERE expires_at < ${before} ORDER BY expires_at LIMIT ${limit})`,
    progress,
    deps.settings,
  );
}
