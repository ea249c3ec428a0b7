import { heartbeat } from '@temporalio/activity';
import type { Database } from '../prisma/client';
import { foldMetricsDayChanges } from '../services/metrics/fold-day-changes';

export function createMetricsRollupActivities({ db }: { db: Database }) {
  return {
    /** Heartbeats the running count after every batch: a backlog after an outage takes many. */
    foldMetricsDayChanges: () => foldMetricsDayChanges(db, (folded) => heartbeat(folded)),
  };
}
