import { router } from '../trpc';
import { getSettlement } from './get';

export const settlementsRouter = router({
  get: getSettlement,
});
