import { ApiError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { resolveChannelScope } from '../auth/channel-scope';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { startReportExport } from './export-workflow';
import { reportSelect } from './repository';
import {
  createReportRequest,
  MAX_REPORT_RANGE_DAYS,
  REPORT_TYPE_PERMISSION,
  reportBoundAt,
  reportExpiry,
  reportObject,
  serializeReport,
} from './schemas';

export const createReport = authorizedProcedure
  .meta(
    operation('reports/create', {
      summary: 'Create a report (CSV export)',
      description:
        `Answered at once with status PROCESSING; the file is built in the background (docs/reports.md). Records created in [date_from, date_to), at most ${MAX_REPORT_RANGE_DAYS} days, ` +
        'of the key’s channels or of `channel_id`. INVOICES needs `invoices:list` as well, SUBSCRIPTIONS `subscriptions:list` (403 otherwise). ' +
        '422 CHANNEL_NOT_FOUND when `channel_id` is not the account’s.',
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
      const channelIds = resolveChannelScope(principal, input.channel_id) ?? [];
      return ctx.transaction(async (tx) => {
        if (input.channel_id && !(await tx.channel.count({ where: { id: input.channel_id, accountId: principal.accountId } }))) {
          throw new ApiError('CHANNEL_NOT_FOUND', `Channel ${input.channel_id} does not exist in this account.`, { channel_id: input.channel_id });
        }
        const now = ctx.now();
        const report = await tx.report.create({
          data: {
            id: newId('report', now.getTime()),
            accountId: principal.accountId,
            apiKeyId: principal.apiKeyId,
            channelIds,
            reportType: input.report_type,
            dateFrom: reportBoundAt(input.date_from),
            dateTo: reportBoundAt(input.date_to),
            status: 'PROCESSING',
            expiresAt: reportExpiry(now),
            createdAt: now,
            updatedAt: now,
          },
          select: reportSelect,
        });
        await startReportExport(ctx.temporal, report.id, report.expiresAt);
        return serializeReport(report);
      });
    }),
  );
