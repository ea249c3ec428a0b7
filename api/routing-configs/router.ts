import { router } from '../trpc';

export const routingConfigsRouter = router({});
