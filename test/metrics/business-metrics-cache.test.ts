import { Registry } from 'prom-client';
import { BUSINESS_METRICS_TTL_MS, registerBusinessMetrics } from '../../services/metrics/business-metrics';
import type { Database } from '../../prisma/client';
import { createTestDatabase, type TestDatabase } from '../support/database';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(() => database?.drop());

describe('the business gauges read PostgreSQL at most once per few seconds', () => {
  it('serves scrapes within the window from one snapshot, and reads afresh after it', async () => {
    let snapshots = 0;
    // Each snapshot opens with the outbox's oldest undispatched event: counted at that read.
    const counted = new Proxy(database.db, {
      get(target, property, receiver) {
        if (property === 'outboxEvent') snapshots += 0.5;
        return Reflect.get(target, property, receiver);
      },
    }) as Database;
    let clock = new Date('2027-01-01T00:00:00Z');
    const registry = new Registry();
    registerBusinessMetrics(registry, counted, () => clock);

    for (let i = 0; i < 5; i++) {
      expect(await registry.metrics()).toMatch(/^billing_outbox_undispatched_events 0$/m);
      clock = new Date(clock.getTime() + 100);
      // Scrapes are separate requests: let the event loop turn between them.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(snapshots).toBe(1);

    clock = new Date(clock.getTime() + BUSINESS_METRICS_TTL_MS);
    await registry.metrics();
    expect(snapshots).toBe(2);
  });
});
