import { ApiError } from '../../domain/errors';
import { createReport as create } from '../../services/reports/create';
import { reachScope } from '../auth/channel-scope';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { createReportRequest, REPORT_TYPE_PERMISSION, reportBoundAt, reportObject, serializeReport } from './schemas';

export const createReport = authorizedProcedure
  .meta(
    operation('reports/create', {
      summary: 'Create a report (CSV export)',
      description:
        'Answered at once with status PROCESSING; the file is built in the background (docs/reports.md). Records created in [date_from, date_to), a range of any length, ' +
        'of every channel the key reaches or of `channel_id`. INVOICES needs `invoices:list` as well, SUBSCRIPTIONS `subscriptions:list` (403 otherwise).',
    }),
  )
  .input(createReportRequest)
  .output(reportObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'reports/create', input, async (ctx) => {
      const { principal } = ctx;
      const required = REPORT_TYPE_PERMISSION[input.report_type];
      if (!principal.permissions.has(required)) {
        throw new ApiError('PERMISSION_DENIED', `${input.report_type} reports need the permission ${required} as well.`, {
          required_permission: required,
        });
      }
      const scope = reachScope(principal, input.channel_id);
      const report = await ctx.transaction((tx) =>
        create(ctx, tx, scope, {
          reportType: input.report_type,
          dateFrom: reportBoundAt(input.date_from),
          dateTo: reportBoundAt(input.date_to),
          channelId: input.channel_id,
          apiKeyId: principal.apiKeyId,
        }),
      );
      return serializeReport(report);
    }),
  );
