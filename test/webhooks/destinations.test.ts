import { readFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { usePlatform } from '../support/platform';
import { waitFor } from './receiver';

// Read by the worker at each attempt: long enough that an answer cut off by the 64 KiB cap is
// told apart from one cut off by the timeout.
process.env.WEBHOOK_DELIVERY_TIMEOUT_MS = '3000';

const platform = usePlatform();
const closers: (() => void)[] = [];
/** Endpoints a test made ACTIVE: deactivated after it, so no test receives another's events. */
let active: string[] = [];

afterEach(async () => {
  for (const id of active) await ok('webhooks/patch', { id, status: 'INACTIVE' });
  active = [];
});

afterAll(async () => {
  closers.forEach((close) => close());
});

async function ok(path: string, body: unknown) {
  const res = await platform.call(`/v2/${path}`, body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** An HTTP server on 127.0.0.1 that counts the connections made to it. */
async function server(listener: RequestListener) {
  const counts = { connections: 0 };
  const http = createServer(listener);
  http.on('connection', () => counts.connections++);
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  closers.push(() => (http.closeAllConnections(), http.close()));
  return { port: (http.address() as AddressInfo).port, counts };
}

/** An ACTIVE endpoint at `url` for CUSTOMER_CREATED; deactivated after the test. */
async function activeEndpoint(url: string): Promise<{ id: string }> {
  const endpoint = await ok('webhooks/create', { url, event_types: ['CUSTOMER_CREATED'] });
  await ok('webhooks/patch', { id: endpoint.id, status: 'ACTIVE' });
  active.push(endpoint.id);
  return endpoint;
}

/** A new customer's CUSTOMER_CREATED delivery to the endpoint, once its first attempt is on record. */
async function firstAttempt(endpoint: { id: string }) {
  const customer = await ok('customers/create', { type: 'INDIVIDUAL', email: 'destinations@example.com' });
  const event = (await platform.db.outboxEvent.findMany({ where: { eventType: 'CUSTOMER_CREATED' } })).find(
    (row) => (row.data as { customer: { id: string } }).customer.id === customer.id,
  )!;
  return waitFor(`the attempt to ${endpoint.id}`, async () => {
    const [delivery] = (await ok('webhooks/list-deliveries', { event_id: event.id, endpoint_id: endpoint.id })).items;
    return delivery?.attempts.length === 1 && delivery.attempt_count === 1 && delivery;
  });
}

/** The first attempt to a new endpoint at `url`, deactivated straight after so later events skip it. */
async function attemptTo(url: string) {
  const endpoint = await activeEndpoint(url);
  const delivery = await firstAttempt(endpoint);
  await ok('webhooks/patch', { id: endpoint.id, status: 'INACTIVE' });
  active = active.filter((id) => id !== endpoint.id);
  return delivery;
}

describe('where deliveries may go', () => {
  it('a name that resolves to loopback is refused at delivery when loopback is not allowed: nothing is sent, the log says ADDRESS_REFUSED', async () => {
    const receiver = await server((_req, res) => res.end());
    // Registered while allowed (the operator turned it off since): every attempt checks again.
    const endpoint = await activeEndpoint(`http://localhost:${receiver.port}/hooks`);
    const allowed = process.env.WEBHOOK_ALLOW_LOOPBACK;
    process.env.WEBHOOK_ALLOW_LOOPBACK = 'false';
    try {
      const delivery = await firstAttempt(endpoint);
      expect(delivery).toMatchObject({ status: 'PENDING', attempts: [{ attempt: 1, status: 'FAILED', error: 'ADDRESS_REFUSED' }] });
      expect(delivery.attempts[0]).not.toHaveProperty('response_status');
    } finally {
      process.env.WEBHOOK_ALLOW_LOOPBACK = allowed;
    }
    expect(receiver.counts.connections).toBe(0);
  });
});

describe('the delivery log', () => {
  it('shows a receiver’s failures in a fixed vocabulary, not the network stack’s text', async () => {
    const closed = await server(() => undefined);
    closers.pop()!();
    const plain = await server((_req, res) => res.end());
    const silent = await server(() => undefined);
    const failing = await server((_req, res) => res.writeHead(502).end('upstream 10.1.2.3 refused'));

    const errorOf = async (url: string) => (await attemptTo(url)).attempts[0].error;
    expect(await errorOf(`http://127.0.0.1:${closed.port}/hooks`)).toBe('CONNECTION_REFUSED');
    expect(await errorOf(`https://127.0.0.1:${plain.port}/hooks`)).toBe('TLS_ERROR');
    expect(await errorOf(`http://127.0.0.1:${silent.port}/hooks`)).toBe('TIMEOUT');
    expect(await errorOf(`http://127.0.0.1:${failing.port}/hooks`)).toBe('HTTP_502');
    expect(await errorOf('https://hooks.invalid/hooks')).toBe('DNS_ERROR');
  });
});

describe('the answer', () => {
  it('an endless 200 body is cut off after 64 KiB: the delivery SUCCEEDED, well within the timeout', async () => {
    let closed = false;
    const endless = await server((req, res) => {
      req.resume();
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      const pump = () => {
        while (!closed && res.write(chunk));
      };
      res.on('drain', pump);
      res.on('close', () => (closed = true));
      pump();
    });
    const delivery = await attemptTo(`http://127.0.0.1:${endless.port}/hooks`);
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attempts: [{ status: 'SUCCEEDED', response_status: 200 }] });
    expect(delivery.attempts[0].duration_ms).toBeLessThan(3000);
    await waitFor('the connection closed', () => closed);
  });
});

describe('attempts recorded before the fixed vocabulary', () => {
  it('are rewritten into it by their migration', async () => {
    const receiver = await server((_req, res) => res.end());
    const { id: deliveryId, endpoint_id, event_id } = await attemptTo(`http://127.0.0.1:${receiver.port}/hooks`);
    const legacy = [
      'TIMEOUT: no answer within 10000 ms',
      'CONNECTION_ERROR: ECONNREFUSED',
      'CONNECTION_ERROR: ENOTFOUND',
      'CONNECTION_ERROR: EAI_AGAIN',
      'CONNECTION_ERROR: DEPTH_ZERO_SELF_SIGNED_CERT',
      'CONNECTION_ERROR: ERR_TLS_CERT_ALTNAME_INVALID',
      'CONNECTION_ERROR: EHOSTUNREACH',
      'CONNECTION_ERROR: getaddrinfo ENOTFOUND db.internal',
      'HTTP_503',
    ];
    await platform.db.webhookDeliveryAttempt.createMany({
      data: legacy.map((error, i) => ({ id: `what_legacy_${i}`, deliveryId, attempt: 10 + i, requestedAt: new Date(), responseStatus: error === 'HTTP_503' ? 503 : null, error, durationMs: 1 })),
    });
    const migration = readFileSync(join(__dirname, '../../prisma/migrations/20261124043141_webhook_attempt_error_vocabulary/migration.sql'), 'utf8');
    await platform.db.$executeRawUnsafe(migration);
    const [delivery] = (await ok('webhooks/list-deliveries', { endpoint_id, event_id })).items;
    expect(delivery.attempts.map((a: { error?: string }) => a.error ?? null)).toEqual([
      null,
      'TIMEOUT',
      'CONNECTION_REFUSED',
      'DNS_ERROR',
      'DNS_ERROR',
      'TLS_ERROR',
      'TLS_ERROR',
      'CONNECTION_ERROR',
      'CONNECTION_ERROR',
      'HTTP_503',
    ]);
  });
});
