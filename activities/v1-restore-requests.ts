import { heartbeat } from '@temporalio/activity';
import type { Database } from '../prisma/client';
import { purgeExpiredV1RestoreRequests } from '../services/v1/purge-seen-requests';

export function createV1RestoreRequestActivities({ db }: { db: Database }) {
  return {
    /** Heartbeats after each batch. */
    purgeExpiredV1RestoreRequests: (): Promise<{ deleted: number }> =>
      purgeExpiredV1RestoreRequests({ db, now: () => new Date() }, (done) => heartbeat(done)),
  };
}
