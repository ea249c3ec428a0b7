import { createDatabase } from '../../prisma/client';
import { purgeExpiredIdempotencyRecords } from '../../services/idempotency/purge-expired-records';
import type { PurgeResult, RetentionDeps } from '../../services/retention/deps';
import { purgeDashboardAuditLog } from '../../services/retention/purge-audit-log';
import { purgeOutboxEvents } from '../../services/retention/purge-outbox-events';
import { purgeCustomerPortalSessions } from '../../services/retention/purge-portal-sessions';
import { purgeStripeEvents } from '../../services/retention/purge-stripe-events';
import { purgeWebhookDeliveries } from '../../services/retention/purge-webhook-deliveries';
import { purgeWebhookDeliveryAttempts } from '../../services/retention/purge-webhook-delivery-attempts';
import { retentionSettings } from '../../services/retention/settings';

/**
 * The purge of bench:retention in a process of its own, as the worker's activities run it: the
 * same service functions, one statement per batch, in the workflow's order, then the idempotency
 * purge. Prints a JSON line as it starts, then one with the rows deleted and seconds taken per
 * table, the milliseconds it all took and when it ended.
 */
async function main(): Promise<void> {
  const db = createDatabase(process.env.DATABASE_URL!, 2);
  const deps: RetentionDeps = { db, now: () => new Date(), settings: retentionSettings() };
  const steps: Array<[string, () => Promise<PurgeResult>]> = [
    ['webhook_delivery_attempts', () => purgeWebhookDeliveryAttempts(deps, () => {})],
    ['webhook_deliveries', () => purgeWebhookDeliveries(deps, () => {})],
    ['outbox_events', () => purgeOutboxEvents(deps, () => {})],
    ['dashboard_audit_log', () => purgeDashboardAuditLog(deps, () => {})],
    ['customer_portal_sessions', () => purgeCustomerPortalSessions(deps, () => {})],
    ['stripe_events', () => purgeStripeEvents(deps, () => {})],
    ['idempotency_records', () => purgeExpiredIdempotencyRecords({ db }, () => {}, deps.settings)],
  ];
  // The bench starts its load on this line, so the load never measures the purge's start-up.
  process.stdout.write(`${JSON.stringify({ startedAt: Date.now() })}\n`);
  const started = performance.now();
  const deleted: Record<string, number> = {};
  const seconds: Record<string, number> = {};
  for (const [table, purge] of steps) {
    const from = performance.now();
    deleted[table] = (await purge()).deleted;
    seconds[table] = (performance.now() - from) / 1000;
  }
  const ms = performance.now() - started;
  await db.$disconnect();
  process.stdout.write(`${JSON.stringify({ deleted, seconds, ms, endedAt: Date.now() })}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
