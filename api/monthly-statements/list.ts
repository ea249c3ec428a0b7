import { startOfDay } from '../../domain/settlement-dates';
import { dateTimeCondition, stringCondition } from '../common/filters';
import { paginate } from '../common/pagination';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import {
  listMonthlyStatementsRequest,
  listMonthlyStatementsResponse,
  monthlyStatementSelect,
  serializeMonthlyStatement,
} from './schemas';

export const listMonthlyStatements = authorizedProcedure
  .meta(
    operation('monthly-statements/list', {
      summary: 'List monthly statements, newest first',
      description:
        'Statements the payment providers issued per legal entity, currency and month, each with its CSV in `files` (an extension: `download_url` once uploaded, valid for 15 minutes; docs/monthly-statements.md).',
      accountLevelOnly: true,
    }),
  )
  .input(listMonthlyStatementsRequest)
  .output(listMonthlyStatementsResponse)
  .query(({ ctx, input }) => {
    const filters = input.filters ?? {};
    const where = {
      accountId: ctx.principal.accountId,
      ...(filters.legal_entity_id ? { legalEntityId: stringCondition(filters.legal_entity_id) } : {}),
      ...(filters.currency ? { currency: stringCondition(filters.currency) } : {}),
      ...(filters.period
        ? { periodFrom: { gte: startOfDay(filters.period.value.from) }, periodTo: { lte: startOfDay(filters.period.value.to) } }
        : {}),
      ...(filters.uploaded_at ? { uploadedAt: dateTimeCondition(filters.uploaded_at) } : {}),
    };
    const now = ctx.now();
    return paginate(
      input.pagination,
      requestHash('monthly-statements/list', filters),
      (beforeId, take) =>
        ctx.db.monthlyStatement.findMany({
          where: beforeId ? { ...where, id: { lt: beforeId } } : where,
          orderBy: { id: 'desc' },
          take,
          select: monthlyStatementSelect,
        }),
      (row) => serializeMonthlyStatement(row, now),
    );
  });
