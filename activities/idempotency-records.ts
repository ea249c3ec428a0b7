import { heartbeat } from '@temporalio/activity';
import type { Database } from '../prisma/client';
import { purgeExpiredIdempotencyRecords } from '../services/idempotency/purge-expired-records';
import { retentionSettings } from '../services/retention/settings';

export function createIdempotencyRecordActivities({ db }: { db: Database }) {
  return {
    /** Reclaims the space of expired idempotency records, heartbeating after each batch. */
    purgeExpiredIdempotencyRecords: (): Promise<{ deleted: number }> => purgeExpiredIdempotencyRecords({ db }, (done) => heartbeat(done), { busyShare: retentionSettings().busyShare }),
  };
}
