import { z } from 'zod';
import { formatDateTime } from '../../domain/datetime';
import type { Permission } from '../../domain/permissions';
import { REPORT_TYPES, type ReportType } from '../../domain/report-columns';
import { isDay, startOfDay } from '../../domain/settlement-dates';
import type { ReportRow } from '../../services/reports/report-row';
import { channelIdField, dateTime, prefixedId } from '../common/schemas';
import { date } from '../settlements/schemas';

export const REPORT_STATUSES = ['PROCESSING', 'SUCCEEDED', 'FAILED', 'EXPIRED'] as const;

/**
 * Which report types a key may access (docs/reports.md): the one its rows come from. A key
 * that may not list invoices may not export them either.
 */
export const REPORT_TYPE_PERMISSION: Record<ReportType, Permission> = {
  INVOICES: 'invoices:list',
  SUBSCRIPTIONS: 'subscriptions:list',
};

export function accessibleReportTypes(permissions: ReadonlySet<string>): ReportType[] {
  return REPORT_TYPES.filter((type) => permissions.has(REPORT_TYPE_PERMISSION[type]));
}

export const reportId = prefixedId('report');
export const reportType = z.enum(REPORT_TYPES);
export const reportStatus = z.enum(REPORT_STATUSES);

/**
 * Section 1 writes dates `YYYY-MM-DD` and section 2.8 bounds a report by dates: a date is read
 * as midnight UTC starting that day. A date-time is accepted too, for a bound inside a day.
 */
function reportBound(description: string) {
  return z.union([date, dateTime]).meta({ description: `${description} A date (YYYY-MM-DD) means 00:00:00 UTC of that day.` });
}

/** The moment a requested bound names. */
export function reportBoundAt(value: string): Date {
  return isDay(value) ? startOfDay(value) : new Date(value);
}

export const createReportRequest = z
  .strictObject({
    report_type: reportType,
    date_from: reportBound('Records created at or after this moment are included.'),
    date_to: reportBound('Records created before this moment are included (exclusive).'),
    channel_id: channelIdField.meta({
      description: 'Only this channel’s records. Left out: every channel the key reaches (all of the account’s for an account-level key).',
    }),
  })
  // No upper bound on the span: section 2.8 sets none, and the export streams whatever its size.
  .superRefine((request, issues) => {
    if (reportBoundAt(request.date_to).getTime() <= reportBoundAt(request.date_from).getTime()) {
      issues.addIssue({ code: 'custom', path: ['date_to'], message: 'Must be later than date_from.', params: { type: 'MIN' } });
    }
  });

export const reportObject = z
  .object({
    id: z.string().meta({ description: 'Prefix `rprt_`.' }),
    report_type: reportType,
    status: reportStatus.meta({
      description: 'PROCESSING until the file is written, then SUCCEEDED (downloadable) or FAILED; EXPIRED 30 days after creation.',
    }),
    date_from: dateTime.meta({ description: 'The requested bound as a date-time: a requested date shows as its 00:00:00 UTC.' }),
    date_to: dateTime.meta({ description: 'The requested bound as a date-time (exclusive): a requested date shows as its 00:00:00 UTC.' }),
    channel_ids: z.array(z.string()).meta({ description: 'Channels whose records the report holds; empty: every channel of the account.' }),
    row_count: z.number().int().optional().meta({ description: 'Data rows (line items) in the file; once SUCCEEDED.' }),
    byte_size: z.number().int().optional().meta({ description: 'Size of the CSV file in bytes; once SUCCEEDED.' }),
    failure_reason: z.string().optional().meta({ description: 'Why the report FAILED.' }),
    created_at: dateTime,
    updated_at: dateTime,
    expires_at: dateTime.meta({ description: 'created_at + 30 days: the file is removed then.' }),
  })
  .meta({ id: 'Report' });

export type ReportObject = z.infer<typeof reportObject>;

export const downloadReportRequest = z.strictObject({ id: reportId });

export function serializeReport(row: ReportRow): ReportObject {
  return {
    id: row.id,
    report_type: row.reportType as ReportType,
    status: row.status as ReportObject['status'],
    date_from: formatDateTime(row.dateFrom),
    date_to: formatDateTime(row.dateTo),
    channel_ids: row.channelIds,
    ...(row.rowCount !== null ? { row_count: row.rowCount } : {}),
    ...(row.byteSize !== null ? { byte_size: Number(row.byteSize) } : {}),
    ...(row.failureReason !== null ? { failure_reason: row.failureReason } : {}),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
    expires_at: formatDateTime(row.expiresAt),
  };
}
