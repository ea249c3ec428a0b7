import { router } from '../trpc';

export const customersRouter = router({});
