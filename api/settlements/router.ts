import { router } from '../trpc';

export const settlementsRouter = router({});
