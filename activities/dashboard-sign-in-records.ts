import { heartbeat } from '@temporalio/activity';
import type { Database } from '../prisma/client';
import { purgeForgottenClients } from '../services/dashboard/known-clients';
import { purgeExpiredSignInCounts } from '../services/dashboard/sign-in-throttle';

export function createDashboardSignInRecordActivities({ db }: { db: Database }) {
  return {
    /** Heartbeats after each batch of either table. */
    purgeExpiredSignInRecords: async (): Promise<{ deleted: number }> => {
      const deps = { db, now: () => new Date() };
      const counts = await purgeExpiredSignInCounts(deps, (done) => heartbeat(done));
      const clients = await purgeForgottenClients(deps, (done) => heartbeat({ deleted: counts.deleted + done.deleted }));
      return { deleted: counts.deleted + clients.deleted };
    },
  };
}
