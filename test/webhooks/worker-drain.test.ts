import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWorker, drainWorkerBackground } from '../../worker/create-worker';
import { usePlatform } from '../support/platform';
import { waitFor } from './receiver';

process.env.WEBHOOK_DELIVERY_TIMEOUT_MS = '5000';

const platform = usePlatform();
let server: Server | undefined;
afterAll(
  () =>
    new Promise<void>((done) => {
      server?.closeAllConnections();
      server ? server.close(() => done()) : done();
    }),
);

async function ok(path: string, body: unknown) {
  const res = await platform.call(`/v2/${path}`, body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe('a stopping worker (docs/webhooks.md, "Delivery")', () => {
  it('records the webhook attempts it has in flight before it lets the database close, so none is sent again', async () => {
    let open = 0;
    server = createServer((req, res) => {
      open++;
      req.resume();
      // Answers well after the worker was told to stop.
      req.on('end', () => setTimeout(() => res.writeHead(200).end(), 1_500));
    });
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    const endpoint = await ok('webhooks/create', { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, event_types: ['CUSTOMER_CREATED'] });
    await ok('webhooks/patch', { id: endpoint.id, status: 'ACTIVE' });

    await platform.restartWorker(async () => {
      // The platform's own worker, dispatcher and sender are stopped: this worker alone sends.
      const worker = await createWorker({
        connection: platform.env.nativeConnection,
        db: platform.db,
        taskQueue: 'drain-test',
        workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! },
        maxCachedWorkflows: 0,
      });
      const running = worker.run();
      await ok('customers/create', { type: 'INDIVIDUAL', email: 'drain@example.com' });
      await waitFor('the attempt in flight', () => open === 1);

      worker.shutdown();
      await running;
      await drainWorkerBackground(worker);
      const deliveries = await platform.db.webhookDelivery.findMany({ where: { endpointId: endpoint.id }, include: { attempts: true } });
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ status: 'SUCCEEDED', attemptCount: 1 });
      expect(deliveries[0]!.attempts.map((a) => a.responseStatus)).toEqual([200]);
    });
    await ok('webhooks/patch', { id: endpoint.id, status: 'INACTIVE' });
    expect(open).toBe(1);
  });
});
