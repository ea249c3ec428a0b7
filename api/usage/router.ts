import { router } from '../trpc';
import { usageSummary } from './summary';

export const usageRouter = router({ summary: usageSummary });
