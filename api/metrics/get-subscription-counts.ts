import { formatDateTime } from '../../domain/datetime';
import { readSubscriptionCounts } from '../../services/metrics/subscription-counts';
import { authorizedProcedure, operation } from '../trpc';
import { currencyOf, currencyRequest, subscriptionCountsObject } from './schemas';

export const getSubscriptionCounts = authorizedProcedure
  .meta(
    operation('metrics/get-subscription-counts', {
      summary: 'Count subscriptions by status',
      description: 'Extension (docs/metrics.md): the account’s subscriptions in the currency by status now, every status present. Account-level keys only.',
      accountLevelOnly: true,
    }),
  )
  .input(currencyRequest)
  .output(subscriptionCountsObject)
  .query(async ({ ctx, input }) => {
    const now = ctx.now();
    const counts = await readSubscriptionCounts(ctx.db, ctx.principal.accountId, { currency: input.currency }, now.getTime());
    return { ...currencyOf(counts.currency), as_of: formatDateTime(now), counts: counts.counts };
  });
