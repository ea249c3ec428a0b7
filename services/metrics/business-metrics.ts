import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../../prisma/client';
import { recentResult } from '../recent-result';
import { readBusinessGauges, type BusinessGauges } from './business-gauges';

/** How long one reading of the business gauges serves every scrape (docs/operators.md, "Metrics"). */
export const BUSINESS_METRICS_TTL_MS = 5_000;

/**
 * The business gauges as Prometheus metrics on `registry`, read from the database at most once per
 * BUSINESS_METRICS_TTL_MS: every gauge's collect awaits the same snapshot, and any number of
 * scrapers (several Prometheus servers, a curl loop) cost one reading per window.
 */
export function registerBusinessMetrics(registry: Registry, db: Database, now: () => Date = () => new Date()): void {
  const snapshot = recentResult(BUSINESS_METRICS_TTL_MS, () => readBusinessGauges(db, now()), () => now().getTime());
  const registers = [registry];

  new Gauge({
    name: 'billing_outbox_lag_seconds',
    help: 'Age of the oldest outbox event not yet dispatched to webhook deliveries (0 when none waits).',
    registers,
    async collect() {
      this.set((await snapshot()).outboxLagSeconds);
    },
  });
  new Gauge({
    name: 'billing_outbox_undispatched_events',
    help: 'Outbox events not yet dispatched to webhook deliveries.',
    registers,
    async collect() {
      this.set((await snapshot()).outboxUndispatched);
    },
  });
  const perEndpoint = (name: string, help: string, pick: (row: BusinessGauges['webhookDeliveries'][number]) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['endpoint_id'] as const,
      registers,
      async collect() {
        // An endpoint whose queue emptied must drop out, not keep its last count.
        this.reset();
        for (const row of (await snapshot()).webhookDeliveries) this.set({ endpoint_id: row.endpointId }, pick(row));
      },
    });
  perEndpoint('billing_webhook_deliveries_pending', 'Webhook deliveries not yet delivered (PENDING), by endpoint.', (row) => row.pending);
  perEndpoint('billing_webhook_deliveries_failing', 'Webhook deliveries retrying after at least one failed attempt, by endpoint.', (row) => row.failing);
  perEndpoint('billing_webhook_deliveries_failed_recently', 'Webhook deliveries that gave up (FAILED) in the last 24 hours, by endpoint.', (row) => row.failedRecently);
  new Gauge({
    name: 'billing_invoices_dunning',
    help: 'Invoices in DUNNING: a collection failed and retries are scheduled.',
    registers,
    async collect() {
      this.set((await snapshot()).invoicesInDunning);
    },
  });
  new Gauge({
    name: 'billing_subscriptions',
    help: 'Subscriptions by status.',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      for (const [status, count] of Object.entries((await snapshot()).subscriptionsByStatus)) this.set({ status }, count);
    },
  });
}
