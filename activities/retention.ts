import { heartbeat } from '@temporalio/activity';
import type { Database } from '../prisma/client';
import { purgeDashboardAuditLog } from '../services/retention/purge-audit-log';
import { purgeDashboardInvitations, purgeDashboardPasswordResets } from '../services/retention/purge-dashboard-links';
import type { PurgeProgress, PurgeResult, RetentionDeps } from '../services/retention/deps';
import { purgeOutboxEvents } from '../services/retention/purge-outbox-events';
import { purgeCustomerPortalSessions } from '../services/retention/purge-portal-sessions';
import { purgeRateLimitBuckets } from '../services/retention/purge-rate-limit-buckets';
import { purgeStripeEvents } from '../services/retention/purge-stripe-events';
import { purgeWebhookDeliveries } from '../services/retention/purge-webhook-deliveries';
import { purgeWebhookDeliveryAttempts } from '../services/retention/purge-webhook-delivery-attempts';
import { retentionSettings } from '../services/retention/settings';

/** One activity per table (docs/retention.md), each heartbeating its running count after every batch. */
export function createRetentionActivities({ db }: { db: Database }) {
  const run = (purge: (deps: RetentionDeps, progress: PurgeProgress) => Promise<PurgeResult>) => (): Promise<PurgeResult> =>
    purge({ db, now: () => new Date(), settings: retentionSettings() }, (done) => heartbeat(done));
  return {
    retainWebhookDeliveryAttempts: run(purgeWebhookDeliveryAttempts),
    retainWebhookDeliveries: run(purgeWebhookDeliveries),
    retainOutboxEvents: run(purgeOutboxEvents),
    retainDashboardAuditLog: run(purgeDashboardAuditLog),
    retainCustomerPortalSessions: run(purgeCustomerPortalSessions),
    retainDashboardInvitations: run(purgeDashboardInvitations),
    retainDashboardPasswordResets: run(purgeDashboardPasswordResets),
    retainStripeEvents: run(purgeStripeEvents),
    retainRateLimitBuckets: run(purgeRateLimitBuckets),
  };
}
