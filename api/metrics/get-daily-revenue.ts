import { readDailyRevenue } from '../../services/metrics/daily-revenue';
import { authorizedProcedure, operation } from '../trpc';
import { currencyOf, dailyRevenueObject, periodOf, periodRequest, serializePeriod } from './schemas';

export const getDailyRevenue = authorizedProcedure
  .meta(
    operation('metrics/get-daily-revenue', {
      summary: 'Get collected and refunded amounts per day',
      description: 'Extension (docs/metrics.md): SUCCEEDED payments and refunds per UTC day of the period, every day present. Account-level keys only.',
      accountLevelOnly: true,
    }),
  )
  .input(periodRequest)
  .output(dailyRevenueObject)
  .query(async ({ ctx, input }) => {
    const revenue = await readDailyRevenue(ctx.db, ctx.principal.accountId, { currency: input.currency, period: periodOf(input) }, ctx.now().getTime());
    return { ...currencyOf(revenue.currency), period: serializePeriod(revenue.period), days: revenue.days };
  });
