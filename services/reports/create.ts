import type { Client } from '@temporalio/client';
import { ApiError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { ReportType } from '../../domain/report-columns';
import type { Prisma } from '../../prisma/client';
import type { Scope } from '../scope';
import { startReportExport } from '../workflows/report-export';
import { reportSelect, type ReportRow } from './report-row';

/** Section 8: a report lives 30 days from its creation. */
export const REPORT_LIFETIME_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

export function reportExpiry(createdAt: Date): Date {
  return new Date(createdAt.getTime() + REPORT_LIFETIME_DAYS * DAY_MS);
}

export interface NewReport {
  reportType: ReportType;
  dateFrom: Date;
  dateTo: Date;
  /** The channel the caller named, checked to be the account's (the scope already narrowed to it). */
  channelId: string | undefined;
  /** The key that asked: the report is its to download. */
  apiKeyId: string;
}

/**
 * reports/create in the caller's transaction (docs/reports.md): a PROCESSING report of the
 * scope's channels (none: every channel of the account), its export workflow started before the
 * commit. 422 CHANNEL_NOT_FOUND when the named channel is not the account's.
 */
export async function createReport(deps: { temporal: Client; now: () => Date }, tx: Prisma.TransactionClient, scope: Scope, report: NewReport): Promise<ReportRow> {
  if (report.channelId && !(await tx.channel.count({ where: { id: report.channelId, accountId: scope.accountId } }))) {
    throw new ApiError('CHANNEL_NOT_FOUND', `Channel ${report.channelId} does not exist in this account.`, { channel_id: report.channelId });
  }
  const now = deps.now();
  const row = await tx.report.create({
    data: {
      id: newId('report', now.getTime()),
      accountId: scope.accountId,
      apiKeyId: report.apiKeyId,
      channelIds: [...(scope.channels ?? [])].sort(),
      reportType: report.reportType,
      dateFrom: report.dateFrom,
      dateTo: report.dateTo,
      status: 'PROCESSING',
      expiresAt: reportExpiry(now),
      createdAt: now,
      updatedAt: now,
    },
    select: reportSelect,
  });
  await startReportExport(deps.temporal, { id: row.id, accountId: scope.accountId, reportType: row.reportType }, row.expiresAt);
  return row;
}
