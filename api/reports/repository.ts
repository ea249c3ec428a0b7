import { ApiError } from '../../domain/errors';
import type { Principal } from '../auth/principal';
import { isAccountLevel } from '../auth/principal';
import type { Database } from '../../prisma/client';
import { reportSelect, type ReportRow } from '../../services/reports/report-row';

/**
 * A report is the caller's to see when it holds nothing beyond the caller's channels: every
 * report for an account-level key, only reports of its own channels for a channel-bound one
 * (an account-wide report holds every channel's records).
 */
export function reportVisible(principal: Principal, report: { channelIds: string[] }): boolean {
  if (isAccountLevel(principal)) return true;
  return report.channelIds.length > 0 && report.channelIds.every((id) => principal.channelIds.includes(id));
}

/** The report, or 404 when it is another account's or beyond the caller's channels. */
export async function visibleReport(db: Database, principal: Principal, id: string): Promise<ReportRow & { storageKey: string | null }> {
  const report = await db.report.findFirst({ where: { id, accountId: principal.accountId }, select: reportSelect });
  if (!report || !reportVisible(principal, report)) throw ApiError.notFound('Report', id);
  return report;
}
