import { router } from '../trpc';
import { createReport } from './create';
import { downloadReport } from './download';
import { listReports } from './list';

export const reportsRouter = router({
  create: createReport,
  download: downloadReport,
  list: listReports,
});
