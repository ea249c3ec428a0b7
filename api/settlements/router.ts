import { router } from '../trpc';
import { getSettlement } from './get';
import { listSettlements } from './list';

export const settlementsRouter = router({
  get: getSettlement,
  list: listSettlements,
});
