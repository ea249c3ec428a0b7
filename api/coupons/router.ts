import { router } from '../trpc';

export const couponsRouter = router({});
