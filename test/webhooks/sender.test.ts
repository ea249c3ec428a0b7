import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WorkflowNotFoundError } from '@temporalio/client';
import { webhookDeliveryWorkflowId } from '../../domain/workflow-ids';
import { dispatchOutboxBatch } from '../../services/webhooks/outbox-dispatch';
import { DEFAULT_RETRY_GRACE_MS, runWebhookSender, type WebhookSender } from '../../services/webhooks/sender';
import { startDeliveryRetry } from '../../services/workflows/webhook-delivery';
import { usePlatform } from '../support/platform';
import { startReceiver, waitFor } from './receiver';

// Read by the worker's sender when it starts, and by each attempt.
process.env.WEBHOOK_DELIVERY_TIMEOUT_MS = '1500';
process.env.WEBHOOK_ENDPOINT_CONCURRENCY = '4';
const CAP = 4;
const MINUTE = 60_000;

const platform = usePlatform();
const closers: (() => Promise<void>)[] = [];
let endpointsOfTest: string[] = [];

afterEach(async () => {
  for (const id of endpointsOfTest) await platform.call('/v2/webhooks/patch', { id, status: 'INACTIVE' });
  endpointsOfTest = [];
});
afterAll(async () => {
  for (const close of closers) await close();
});

async function ok(path: string, body: unknown) {
  const res = await platform.call(`/v2/${path}`, body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function activate(url: string) {
  const endpoint = await ok('webhooks/create', { url, event_types: ['CUSTOMER_CREATED'] });
  await ok('webhooks/patch', { id: endpoint.id, status: 'ACTIVE' });
  endpointsOfTest.push(endpoint.id);
  return endpoint as { id: string; secret: string };
}

async function kitReceiver() {
  const receiver = await startReceiver();
  closers.push(receiver.close);
  const endpoint = await activate(receiver.url);
  receiver.setSecrets([endpoint.secret]);
  return { receiver, endpoint };
}

/** A receiver that counts the requests open at once: each answers after `delayMs`, or never (the sender's timeout ends it). */
async function countingReceiver(delayMs: number | 'never') {
  const seen: string[] = [];
  let open = 0;
  let maxOpen = 0;
  const server: Server = createServer((req, res) => {
    open++;
    maxOpen = Math.max(maxOpen, open);
    res.on('close', () => open--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event_id: string }).event_id);
      if (delayMs !== 'never') setTimeout(() => res.writeHead(200).end(), delayMs);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  closers.push(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  );
  const endpoint = await activate(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
  return { endpoint, seen, maxOpen: () => maxOpen };
}

const customers = async (n: number) => {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await ok('customers/create', { type: 'INDIVIDUAL', email: `sender${i}@example.com` })).id);
  return ids;
};

const attemptsOf = (endpointId: string) => platform.db.webhookDeliveryAttempt.count({ where: { delivery: { endpointId } } });

describe('fair to every endpoint', () => {
  it('a dead endpoint (requests that hang until the timeout) delays no other endpoint, and holds at most its cap', async () => {
    const dead = await countingReceiver('never');
    const { receiver, endpoint: healthy } = await kitReceiver();
    const started = Date.now();
    await customers(24);

    await waitFor('the healthy endpoint’s 24 deliveries', async () => (await platform.db.webhookDelivery.count({ where: { endpointId: healthy.id, status: 'SUCCEEDED' } })) === 24);
    const healthyTookMs = Date.now() - started;
    // 24 hanging attempts at 4 at a time, 1.5 s each, take 9 s or more: the healthy endpoint did not wait for them.
    expect(await attemptsOf(dead.endpoint.id)).toBeLessThan(24);
    expect(receiver.processed).toHaveLength(24);

    await waitFor('the dead endpoint’s first attempts', async () => (await attemptsOf(dead.endpoint.id)) === 24, 90_000);
    expect(dead.maxOpen()).toBeGreaterThan(0);
    expect(dead.maxOpen()).toBeLessThanOrEqual(CAP);
    expect(healthyTookMs).toBeLessThan(Date.now() - started);
    // Every failed first attempt went to its retry workflow.
    expect(await platform.db.webhookDelivery.count({ where: { endpointId: dead.endpoint.id, status: 'PENDING', handler: 'RETRY', attemptCount: 1 } })).toBe(24);
  }, 120_000);
});

describe('scale-out', () => {
  it('three senders over one database send each delivery once, within one per-endpoint cap', async () => {
    const slow = await countingReceiver(100);
    const clock = async () => new Date(await platform.env.currentTimeMs());
    const extra: WebhookSender[] = [1, 2].map(() =>
      runWebhookSender({ db: platform.db, clock, startRetry: (retry) => startDeliveryRetry(platform.env.client, retry), endpointConcurrency: CAP, pollMs: 5 }),
    );
    try {
      await customers(40);
      await waitFor('40 deliveries', async () => (await platform.db.webhookDelivery.count({ where: { endpointId: slow.endpoint.id, status: 'SUCCEEDED' } })) === 40, 60_000);
    } finally {
      await Promise.all(extra.map((s) => s.stop()));
    }
    expect(slow.seen).toHaveLength(40);
    expect(new Set(slow.seen).size).toBe(40);
    expect(await attemptsOf(slow.endpoint.id)).toBe(40);
    expect(slow.maxOpen()).toBeGreaterThan(1);
    expect(slow.maxOpen()).toBeLessThanOrEqual(CAP);
  }, 90_000);
});

describe('a crash between a failure’s commit and its retry workflow’s start', () => {
  it('is recovered by the sweep: the retry workflow starts late and delivers', async () => {
    const { receiver, endpoint } = await kitReceiver();
    receiver.behave(({ count }) => (count === 1 ? { status: 503 } : 'ACCEPT'));
    let eventId = '';
    await platform.restartWorker(async () => {
      const [customerId] = await customers(1);
      const events = await platform.db.outboxEvent.findMany({ where: { eventType: 'CUSTOMER_CREATED' } });
      eventId = events.find((e) => (e.data as { customer: { id: string } }).customer.id === customerId)!.id;
      await dispatchOutboxBatch(platform.db);
      // A sender whose process dies right after committing the failure: its workflow start never happens.
      const doomed = runWebhookSender({
        db: platform.db,
        clock: async () => new Date(await platform.env.currentTimeMs()),
        startRetry: () => Promise.reject(new Error('killed')),
        logger: { warn: () => {} },
        pollMs: 5,
      });
      await waitFor('the failed first attempt', async () => (await platform.db.webhookDelivery.findFirst({ where: { eventId, endpointId: endpoint.id, handler: 'RETRY' } })) ?? false);
      await doomed.stop();
    });
    const workflow = platform.env.client.workflow.getHandle(webhookDeliveryWorkflowId(eventId, endpoint.id));
    await expect(workflow.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    expect(receiver.requests).toHaveLength(1);

    // Past the first retry's due time and the sweep's grace: the sweep starts the retry workflow.
    await platform.env.sleep(MINUTE + DEFAULT_RETRY_GRACE_MS + 10_000);
    await waitFor('the retried delivery', async () => (await platform.db.webhookDelivery.findFirst({ where: { eventId, endpointId: endpoint.id } }))?.status === 'SUCCEEDED', 60_000);
    expect(await workflow.result()).toEqual({ status: 'SUCCEEDED', attempts: 2 });
    expect(receiver.requests.map((r) => r.status)).toEqual([503, 200]);
    expect(receiver.processed).toHaveLength(1);
  }, 120_000);
});
