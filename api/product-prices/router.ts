import { router } from '../trpc';

export const productPricesRouter = router({});
