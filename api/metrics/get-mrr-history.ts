import { formatDateTime } from '../../domain/datetime';
import { readMrrHistory } from '../../services/metrics/mrr-history';
import { authorizedProcedure, operation } from '../trpc';
import { currencyOf, currencyRequest, mrrHistoryObject } from './schemas';

export const getMrrHistory = authorizedProcedure
  .meta(
    operation('metrics/get-mrr-history', {
      summary: 'Get MRR at the end of each of the last twelve months',
      description: 'Extension (docs/metrics.md): MRR and ARR at the ends of the eleven months before the current one, then now. Account-level keys only.',
      accountLevelOnly: true,
    }),
  )
  .input(currencyRequest)
  .output(mrrHistoryObject)
  .query(async ({ ctx, input }) => {
    const history = await readMrrHistory(ctx.db, ctx.principal.accountId, { currency: input.currency }, ctx.now().getTime());
    return { ...currencyOf(history.currency), points: history.points.map((point) => ({ ...point, at: formatDateTime(new Date(point.at)) })) };
  });
