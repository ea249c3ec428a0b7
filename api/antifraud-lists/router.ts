import { router } from '../trpc';

export const antifraudListsRouter = router({});
