import { heartbeat } from '@temporalio/activity';
import type { Database } from '../prisma/client';
import { purgeV1AnswersOfRotatedOutSecrets } from '../services/v1/purge-recorded-answers';

export function createV1RestoreRequestActivities({ db }: { db: Database }) {
  return {
    /** Named as when it purged by age: workflow histories name activities by it. Heartbeats after each batch. */
    purgeExpiredV1RestoreRequests: (): Promise<{ deleted: number }> =>
      purgeV1AnswersOfRotatedOutSecrets({ db, now: () => new Date() }, (done) => heartbeat(done)),
  };
}
