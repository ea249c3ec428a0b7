import { z } from 'zod';
import { resolveChannelScope } from '../auth/channel-scope';
import { dateTimeCondition, dateTimeRangeFilter, valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { channelIdField } from '../common/schemas';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { reportSelect } from '../../services/reports/report-row';
import { accessibleReportTypes, reportObject, reportStatus, reportType, serializeReport } from './schemas';

export const listReportsRequest = z.strictObject({
  channel_id: channelIdField.meta({
    description: 'Only reports of this one channel. Required when the API key is bound to several channels.',
  }),
  filters: z
    .strictObject({
      report_type: valueFilter(['EQ', 'IN'], reportType).optional(),
      status: valueFilter(['EQ', 'IN'], reportStatus).optional(),
      created_at: dateTimeRangeFilter.optional(),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

function selected(filter: { operator: string; value: string | string[] } | undefined): string[] | undefined {
  if (!filter) return undefined;
  return Array.isArray(filter.value) ? filter.value : [filter.value];
}

export const listReports = authorizedProcedure
  .meta(
    operation('reports/list', {
      summary: 'List reports, newest first',
      description:
        'Reports of the types the key may access (INVOICES with `invoices:list`, SUBSCRIPTIONS with `subscriptions:list`) ' +
        'and of its channels: an account-level key sees every report, a channel-bound key those of its channels.',
    }),
  )
  .input(listReportsRequest)
  .output(z.object({ items: z.array(reportObject), pagination: paginationResponse }))
  .query(({ ctx, input }) => {
    const { principal } = ctx;
    const scope = resolveChannelScope(principal, input.channel_id);
    const filters = input.filters ?? {};
    const wanted = selected(filters.report_type);
    const types = accessibleReportTypes(principal.permissions).filter((type) => !wanted || wanted.includes(type));
    const statuses = selected(filters.status);
    // Reports name at most one channel (a channel-bound key always reports on one), so "some of
    // the scope" is "within the scope".
    const where = {
      accountId: principal.accountId,
      reportType: { in: types },
      ...(scope ? { channelIds: { hasSome: scope } } : {}),
      ...(statuses ? { status: { in: statuses } } : {}),
      ...(filters.created_at ? { createdAt: dateTimeCondition(filters.created_at) } : {}),
    };
    return paginate(
      input.pagination,
      requestHash('reports/list', { filters, channel_id: input.channel_id }),
      (beforeId, take) =>
        ctx.db.report.findMany({
          where: beforeId ? { ...where, id: { lt: beforeId } } : where,
          orderBy: { id: 'desc' },
          take,
          select: reportSelect,
        }),
      serializeReport,
    );
  });
