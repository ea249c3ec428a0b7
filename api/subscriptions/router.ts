import { router } from '../trpc';

export const subscriptionsRouter = router({});
