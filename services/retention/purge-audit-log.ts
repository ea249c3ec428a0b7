import { deleteInBatches } from '../batched-delete';
import { cutoff, type PurgeProgress, type PurgeResult, type RetentionDeps } from './deps';

/** Deletes dashboard audit rows written longer ago than the audit retention (400 days unless configured). */
export function purgeDashboardAuditLog(deps: RetentionDeps, progress: PurgeProgress): Promise<PurgeResult> {
  const before = cutoff(deps, deps.settings.auditLogMs);
  return deleteInBatches(
    (limit) => deps.db.$executeRaw`
      DELETE FROM dashboard_audit_log
      WHERE id IN (SELECT id FROM dashboard_audit_log WHERE created_at < ${before} ORDER BY created_at LIMIT ${limit})`,
    progress,
    deps.settings,
  );
}
