import { router } from '../trpc';
import { getDailyRevenue } from './get-daily-revenue';
import { getMrrHistory } from './get-mrr-history';
import { getOverview } from './get-overview';
import { getSubscriptionCounts } from './get-subscription-counts';

export const metricsRouter = router({
  'get-overview': getOverview,
  'get-daily-revenue': getDailyRevenue,
  'get-mrr-history': getMrrHistory,
  'get-subscription-counts': getSubscriptionCounts,
});
