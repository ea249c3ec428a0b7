import { router } from '../trpc';
import { listMonthlyStatements } from './list';

export const monthlyStatementsRouter = router({
  list: listMonthlyStatements,
});
