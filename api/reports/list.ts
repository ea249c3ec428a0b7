import { z } from 'zod';
import { resolveChannelScope } from '../auth/channel-scope';
import { dateTimeCondition, dateTimeRangeFilter, valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { channelIdField } from '../common/schemas';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { reportSelect } from '../../services/reports/report-row';
import type { Prisma } from '../../prisma/client';
import { visibleReportsWhere } from './repository';
import { accessibleReportTypes, reportObject, reportStatus, reportType, serializeReport } from './schemas';

export const listReportsRequest = z.strictObject({
  channel_id: channelIdField.meta({
    description: 'Only reports that hold this channel’s records. Left out: every report the key may see.',
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
        'and of its channels: an account-level key sees every report, a channel-bound key those naming only channels it reaches.',
    }),
  )
  .input(listReportsRequest)
  .output(z.object({ items: z.array(reportObject), pagination: paginationResponse }))
  .query(async ({ ctx, input }) => {
    const { principal } = ctx;
    // 403 for a channel beyond the key's.
    if (input.channel_id) resolveChannelScope(principal, input.channel_id);
    const filters = input.filters ?? {};
    const wanted = selected(filters.report_type);
    const types = accessibleReportTypes(principal.permissions).filter((type) => !wanted || wanted.includes(type));
    const statuses = selected(filters.status);
    const where: Prisma.ReportWhereInput = {
      ...(await visibleReportsWhere(ctx.db, principal, input.channel_id)),
      reportType: { in: types },
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
