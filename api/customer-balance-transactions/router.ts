import { router } from '../trpc';
import { createBalanceTransaction } from './create';
import { listBalanceTransactions } from './list';

export const customerBalanceTransactionsRouter = router({
  create: createBalanceTransaction,
  list: listBalanceTransactions,
});
