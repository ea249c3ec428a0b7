import { router } from '../trpc';
import { createBalanceTransaction } from './create';
import { listBalanceTransactionsProcedure } from './list';

export const customerBalanceTransactionsRouter = router({
  create: createBalanceTransaction,
  list: listBalanceTransactionsProcedure,
});
