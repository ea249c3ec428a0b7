import type { Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { EVENT_NAMES, EVENT_TYPES } from '../../domain/event-catalogue';
import { newId } from '../../domain/ids';
import { startWorkerHealthServer } from '../../worker/health-server';
import { WorkerMetrics } from '../../worker/metrics';
import { processMetrics } from '../../services/metrics/process-metrics';
import { BUSINESS_METRICS_TTL_MS } from '../../services/metrics/business-metrics';
import { READINESS_TTL_MS } from '../../services/health/readiness';
import { workerRuntime } from '../../worker/runtime-options';
import { startPlatform, type Platform } from '../support/platform';
import { samplesOf, valueOf, type Sample } from './prometheus-text';

let platform: Platform;
let health: Server;
let healthUrl: string;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  // The worker process's own Runtime (worker/main.ts), its SDK exporter on a port of its own.
  const runtime = await workerRuntime({ TEMPORAL_METRICS_ADDRESS: `127.0.0.1:${await freePort()}` }, { level: 'error', destination: { write: () => {} } });
  platform = await startPlatform({ runtime: runtime.options });
  health = await startWorkerHealthServer(0, { worker: platform.worker, db: platform.db, temporal: platform.env.client, metrics: new WorkerMetrics(platform.db, processMetrics(), runtime.sdkMetricsAddress) });
  healthUrl = `http://127.0.0.1:${(health.address() as AddressInfo).port}`;
});

afterAll(async () => {
  health?.close();
  await platform?.stop();
});

async function scrape(): Promise<Sample[]> {
  const response = await fetch(`${healthUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  return samplesOf(await response.text());
}

describe('GET /metrics on the worker health server', () => {
  it("carries the Temporal SDK's own metrics beside the process's", async () => {
    // The worker has polled by now; the SDK reports its pollers and requests from its first poll.
    let samples = await scrape();
    for (let i = 0; i < 50 && !samples.some((s) => s.name.startsWith('temporal_')); i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      samples = await scrape();
    }
    expect(samples.filter((s) => s.name.startsWith('temporal_')).map((s) => s.name)).toEqual(expect.arrayContaining([expect.stringMatching(/^temporal_(request|num_pollers|worker_start)/)]));
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('reports the business gauges from the rows: outbox lag, deliveries per endpoint, invoices in DUNNING, subscriptions by status', async () => {
    const { db, accountId, channelIds } = platform;
    const customer = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'gauges@example.com' });
    expect(customer.status).toBe(200);
    const endpoint = await platform.call('/v2/webhooks/create', { url: 'http://127.0.0.1:9/hook', event_types: [EVENT_TYPES[EVENT_NAMES[0]!]] });
    expect(endpoint.status).toBe(200);
    const now = Date.now();
    const seeded = { accountId, channelId: channelIds[0], customerId: customer.body.id, currency: 'EUR', createdAt: new Date(now), updatedAt: new Date(now) };

    // The outbox dispatcher would take the event at once: the rows go in while the worker is stopped.
    let samples: Sample[] = [];
    await platform.restartWorker(async () => {
      const fiveMinutesAgo = new Date(now - 300_000);
      await db.outboxEvent.create({
        data: { id: newId('event', fiveMinutesAgo.getTime()), accountId, eventType: 'test.metrics', occurredAt: fiveMinutesAgo, createdAt: fiveMinutesAgo, data: {} },
      });
      const delivery = (status: string, attemptCount: number) => ({
        id: newId('webhookDelivery'),
        accountId,
        endpointId: endpoint.body.id,
        eventId: newId('event'),
        eventType: 'test.metrics',
        status,
        attemptCount,
        createdAt: new Date(now),
        updatedAt: new Date(now),
      });
      await db.webhookDelivery.createMany({ data: [delivery('PENDING', 0), delivery('PENDING', 2), delivery('PENDING', 1), delivery('FAILED', 8)] });
      await db.invoice.create({
        data: {
          ...seeded,
          id: newId('invoice'),
          status: 'DUNNING',
          totalAmount: 1000,
          amountDue: 1000,
          amountDetails: {},
          discounts: [],
          billingReason: 'MANUAL',
          collectionMethod: 'CHARGE_AUTOMATICALLY',
        },
      });
      await db.subscription.createMany({ data: [{ ...seeded, id: newId('subscription'), status: 'REDEMPTION' }, { ...seeded, id: newId('subscription'), status: 'REDEMPTION' }] });
      // Past the reading the earlier scrapes share.
      await new Promise((resolve) => setTimeout(resolve, BUSINESS_METRICS_TTL_MS));
      samples = await scrape();
    });

    const lag = valueOf(samples, 'billing_outbox_lag_seconds')!;
    expect(lag).toBeGreaterThanOrEqual(300);
    expect(lag).toBeLessThan(300 + (Date.now() - now) / 1000 + 1);
    expect(valueOf(samples, 'billing_outbox_undispatched_events')).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'billing_webhook_deliveries_pending', { endpoint_id: endpoint.body.id })).toBe(3);
    expect(valueOf(samples, 'billing_webhook_deliveries_failing', { endpoint_id: endpoint.body.id })).toBe(2);
    expect(valueOf(samples, 'billing_webhook_deliveries_failed_recently', { endpoint_id: endpoint.body.id })).toBe(1);
    expect(valueOf(samples, 'billing_invoices_dunning')).toBe(1);
    expect(valueOf(samples, 'billing_subscriptions', { status: 'REDEMPTION' })).toBe(2);
    expect(valueOf(samples, 'billing_subscriptions', { status: 'ACTIVE' })).toBe(0);

    // Rows that leave the state leave the gauge: nothing keeps a stale count.
    await db.webhookDelivery.deleteMany({ where: { endpointId: endpoint.body.id } });
    await db.invoice.updateMany({ where: { status: 'DUNNING' }, data: { status: 'PAID' } });
    await new Promise((resolve) => setTimeout(resolve, BUSINESS_METRICS_TTL_MS));
    const later = await scrape();
    expect(valueOf(later, 'billing_webhook_deliveries_pending', { endpoint_id: endpoint.body.id })).toBeUndefined();
    expect(valueOf(later, 'billing_invoices_dunning')).toBe(0);
  });
});

describe('GET /health/ready on the worker health server', () => {
  it('answers from checks at most a few seconds old, then from new ones', async () => {
    // Its own server: the one above watches the worker an earlier test restarted.
    const server = await startWorkerHealthServer(0, { worker: platform.worker, db: platform.db, temporal: platform.env.client });
    const ready = async () => (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/health/ready`)).status;
    expect(await ready()).toBe(200);
    const [last] = await platform.db.$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1`;
    await platform.db.$executeRaw`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = ${last!.migration_name}`;
    try {
      expect(await ready()).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, READINESS_TTL_MS));
      expect(await ready()).toBe(503);
    } finally {
      await platform.db.$executeRaw`UPDATE _prisma_migrations SET rolled_back_at = NULL WHERE migration_name = ${last!.migration_name}`;
      server.close();
    }
  });
});
