import { router } from '../trpc';

export const productsRouter = router({});
