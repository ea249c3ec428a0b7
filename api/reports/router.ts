import { router } from '../trpc';

export const reportsRouter = router({});
