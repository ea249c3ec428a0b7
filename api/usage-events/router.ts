import { router } from '../trpc';
import { ingestUsageEvents } from './ingest';

export const usageEventsRouter = router({ ingest: ingestUsageEvents });
