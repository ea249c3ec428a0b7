import { ApiError } from '../../domain/errors';
import type { ReportType } from '../../domain/report-columns';
import { storedFileUrl, STORED_FILE_URL_TTL_SECONDS } from '../files/stored-file-url';
import { seeOtherResponse } from '../http/see-other';
import { authorizedProcedure, operation } from '../trpc';
import { visibleReport } from './repository';
import { downloadReportRequest, REPORT_TYPE_PERMISSION } from './schemas';

/** The name the browser saves the file under. */
export function reportFilename(report: { id: string; reportType: string }): string {
  return `${report.reportType.toLowerCase()}-${report.id}.csv`;
}

export const downloadReport = authorizedProcedure
  .meta({
    ...operation('reports/download', {
      summary: 'Download a report',
      description:
        `303 See Other to a signed link to the CSV, valid ${STORED_FILE_URL_TTL_SECONDS / 60} minutes (docs/reports.md); ask again for a fresh one. ` +
        '403 when the key may not access the report type; 404 for reports beyond the key’s channels.',
    }),
    seeOther: true,
  })
  .input(downloadReportRequest)
  .output(seeOtherResponse)
  .query(async ({ ctx, input }) => {
    const report = await visibleReport(ctx.db, ctx.principal, input.id);
    const required = REPORT_TYPE_PERMISSION[report.reportType as ReportType];
    if (!ctx.principal.permissions.has(required)) {
      throw new ApiError('PERMISSION_DENIED', `${report.reportType} reports need the permission ${required} as well.`, {
        required_permission: required,
      });
    }
    if (report.status !== 'SUCCEEDED' || !report.storageKey) {
      const why = report.status === 'PROCESSING' ? 'is still being built; try again shortly' : `is ${report.status}`;
      throw new ApiError('INCOMPATIBLE_STATUS', `Report ${report.id} ${why}.`, { status: report.status });
    }
    const location = storedFileUrl(report.storageKey, reportFilename(report), ctx.now());
    if (!location) throw new ApiError('INTERNAL', 'Downloads are not configured on this server (URL_SIGNING_KEY is unset).');
    return { location };
  });
