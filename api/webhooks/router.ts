import { router } from '../trpc';

export const webhooksRouter = router({});
