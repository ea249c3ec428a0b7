import { ApiError } from '../../domain/errors';
import type { Principal } from '../auth/principal';
import { isAccountLevel } from '../auth/principal';
import type { Database, Prisma } from '../../prisma/client';
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

/**
 * reports/list's condition for reportVisible: a channel-bound key's reports name channels, none
 * of them beyond the key's (the account's other channels looked up once). `channelId` narrows to
 * the reports naming that channel.
 */
export async function visibleReportsWhere(db: Database, principal: Principal, channelId: string | undefined): Promise<Prisma.ReportWhereInput> {
  const conditions: Prisma.ReportWhereInput[] = [{ accountId: principal.accountId }];
  if (channelId) conditions.push({ channelIds: { has: channelId } });
  if (!isAccountLevel(principal)) {
    const beyondKey = await db.channel.findMany({ where: { accountId: principal.accountId, id: { notIn: principal.channelIds } }, select: { id: true } });
    conditions.push({ channelIds: { isEmpty: false } }, { NOT: { channelIds: { hasSome: beyondKey.map((channel) => channel.id) } } });
  }
  return { AND: conditions };
}

/** The report, or 404 when it is another account's or beyond the caller's channels. */
export async function visibleReport(db: Database, principal: Principal, id: string): Promise<ReportRow & { storageKey: string | null }> {
  const report = await db.report.findFirst({ where: { id, accountId: principal.accountId }, select: reportSelect });
  if (!report || !reportVisible(principal, report)) throw ApiError.notFound('Report', id);
  return report;
}
