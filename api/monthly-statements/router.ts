import { router } from '../trpc';

export const monthlyStatementsRouter = router({});
