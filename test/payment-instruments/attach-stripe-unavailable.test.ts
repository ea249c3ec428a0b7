import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { PROVIDER_RETRY_AFTER_SECONDS } from '../../api/errors/retry-after';
import { buildServer } from '../../api/http/server';
import { openApiDocument } from '../../api/openapi/document';
import { RateLimiter } from '../../api/rate-limit/token-bucket';
import { askStripe } from '../../services/payment-instruments/stripe-refusals';
import { createLogger } from '../../services/logging/logger';
import { connectStripe } from '../../services/payments/providers/stripe/connection';
import { usePlatform } from '../support/platform';
import { startLocalstripe, stripeClientFor, type StripeEmulator } from '../support/stripe-emulators';

/**
 * Issue 41 follow-up: Stripe unreachable or failing during payment-instruments/attach is 503
 * PROVIDER_UNAVAILABLE with Retry-After, never a bare 500; nothing is saved and the Idempotency-Key
 * keeps no answer, so the same request succeeds once Stripe is back. The account reaches
 * localstripe through a proxy the tests close (connections refused), reopen, or have answer for
 * Stripe (a 5xx, a 429, an egress proxy's error page).
 */
const platform = usePlatform();
let emulator: StripeEmulator;
/** The merchant's own Stripe, straight to localstripe: what Stripe.js makes in the browser. */
let stripe: Stripe;
let proxy: Server;
let proxyPort: number;
/** An answer the proxy gives instead of Stripe's to the requests it matches. */
let fault: ((method: string, path: string) => { status: number; type: string; body: string } | undefined) | undefined;

const nextYear = new Date().getUTCFullYear() + 1;
const SECRET_KEY = 'sk_test_unavailable0001';

function listen(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(port, '127.0.0.1', () => {
      proxy.off('error', reject);
      resolve();
    });
  });
}

/** Stripe unreachable: nothing listens at the connection's address any more. */
function stripeDown(): Promise<void> {
  const closed = new Promise<void>((resolve) => proxy.close(() => resolve()));
  proxy.closeAllConnections();
  return closed;
}

const stripeBack = () => listen(proxyPort);

beforeAll(async () => {
  emulator = await startLocalstripe();
  stripe = stripeClientFor(emulator, SECRET_KEY);
  proxy = createServer((incoming, outgoing) => {
    const faulty = fault?.(incoming.method!, incoming.url!.split('?')[0]!);
    if (faulty) {
      incoming.resume();
      outgoing.writeHead(faulty.status, { 'content-type': faulty.type }).end(faulty.body);
      return;
    }
    const upstream = forward({ host: emulator.host, port: emulator.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(outgoing);
    });
    incoming.pipe(upstream);
  });
  await listen(0);
  proxyPort = (proxy.address() as AddressInfo).port;
  await connectStripe(
    platform.db,
    platform.accountId,
    { secretKey: SECRET_KEY, webhookSecret: 'whsec_unavailable0001', apiBase: `http://127.0.0.1:${proxyPort}`, connectedBy: 'operator' },
    new Date(),
  );
});

afterEach(() => {
  fault = undefined;
});

afterAll(async () => {
  if (proxy?.listening) await stripeDown();
});

const attach = (body: Record<string, unknown>, idempotencyKey?: string) =>
  platform.call('/v2/payment-instruments/attach', body, idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {});

async function newCustomer() {
  const res = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'unavailable@example.com', first_name: 'Ada' });
  expect(res.status).toBe(200);
  return res.body as { id: string };
}

function paymentMethod() {
  return stripe.paymentMethods.create({ type: 'card', card: { number: '4242424242424242', exp_month: 8, exp_year: nextYear, cvc: '123' } } as Stripe.PaymentMethodCreateParams);
}

/** The 503 of a provider that could not answer: its envelope, and when to come back. */
function expectProviderUnavailable(res: Awaited<ReturnType<typeof attach>>) {
  expect({ status: res.status, retryAfter: res.headers.get('retry-after'), body: res.body }).toEqual({
    status: 503,
    retryAfter: String(PROVIDER_RETRY_AFTER_SECONDS),
    body: { code: 'PROVIDER_UNAVAILABLE', message: expect.stringContaining('Stripe'), context: { provider: 'stripe', retryable: true } },
  });
}

const savedFor = async (customerId: string) => ({
  instruments: await platform.db.paymentInstrument.count({ where: { customerId } }),
  mirrors: await platform.db.stripeCustomer.count({ where: { customerId } }),
});

const answerStored = (key: string) => platform.db.idempotencyRecord.count({ where: { key } });

describe('payment-instruments/attach while Stripe is unavailable', () => {
  it('answers 503 PROVIDER_UNAVAILABLE with Retry-After when Stripe refuses connections, saves nothing, and the same Idempotency-Key succeeds once Stripe is back', async () => {
    const customer = await newCustomer();
    const method = await paymentMethod();
    const request = { customer_id: customer.id, provider: 'stripe', payment_method_id: method.id };
    const key = `attach-unavailable-${method.id}`;

    await stripeDown();
    try {
      const refused = await attach(request, key);
      expectProviderUnavailable(refused);
      expect(await savedFor(customer.id)).toEqual({ instruments: 0, mirrors: 0 });
      expect(await answerStored(key)).toBe(0);
      // Asked again while Stripe is still down: tried again, not replayed.
      const again = await attach(request, key);
      expectProviderUnavailable(again);
      expect(again.headers.get('idempotent-replayed')).toBeNull();
    } finally {
      await stripeBack();
    }
    expect((await stripe.paymentMethods.retrieve(method.id)).customer).toBeNull();

    const saved = await attach(request, key);
    expect(saved.status).toBe(200);
    expect(saved.headers.get('idempotent-replayed')).toBeNull();
    expect(saved.body).toMatchObject({ customer_id: customer.id, provider: 'stripe', provider_reference: method.id, status: 'ACTIVE' });
    expect(await savedFor(customer.id)).toEqual({ instruments: 1, mirrors: 1 });
    const replay = await attach(request, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(saved.body);
  });

  it('answers 503 when Stripe fails the attach after the mirror was made: no instrument, and the retry puts the card on that same mirror', async () => {
    const customer = await newCustomer();
    const method = await paymentMethod();
    const request = { customer_id: customer.id, provider: 'stripe', payment_method_id: method.id };
    const key = `attach-5xx-${method.id}`;
    fault = (verb, path) =>
      verb === 'POST' && path === `/v1/payment_methods/${method.id}/attach`
        ? { status: 500, type: 'application/json', body: JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred.' } }) }
        : undefined;

    expectProviderUnavailable(await attach(request, key));
    expect(await savedFor(customer.id)).toEqual({ instruments: 0, mirrors: 1 });
    expect(await answerStored(key)).toBe(0);

    fault = undefined;
    const saved = await attach(request, key);
    expect(saved.status).toBe(200);
    const mirror = await platform.db.stripeCustomer.findUniqueOrThrow({ where: { customerId: customer.id } });
    expect((await stripe.paymentMethods.retrieve(method.id)).customer).toBe(mirror.stripeCustomerId);
    expect(await platform.db.paymentInstrument.findUniqueOrThrow({ where: { id: saved.body.id } })).toMatchObject({ providerCustomerReference: mirror.stripeCustomerId });
  });

  it('answers 503 to Stripe’s rate limit (429) and to an egress proxy’s error page, saving nothing', async () => {
    const customer = await newCustomer();
    const method = await paymentMethod();
    const request = { customer_id: customer.id, provider: 'stripe', payment_method_id: method.id };
    const faults = [
      { status: 429, type: 'application/json', body: JSON.stringify({ error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests.' } }) },
      { status: 502, type: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' },
    ];
    for (const answer of faults) {
      fault = (verb, path) => (verb === 'GET' && path === `/v1/payment_methods/${method.id}` ? answer : undefined);
      const res = await attach(request);
      expect({ status: answer.status, code: res.body.code }).toEqual({ status: answer.status, code: 'PROVIDER_UNAVAILABLE' });
      expectProviderUnavailable(res);
    }
    expect(await savedFor(customer.id)).toEqual({ instruments: 0, mirrors: 0 });
  });

  it('logs Stripe’s own error at warn for the operator, with the request id and without the secret key', async () => {
    const lines: string[] = [];
    const logger = createLogger({ name: 'api', level: 'info', format: 'json', destination: { write: (line: string) => void lines.push(line) } });
    const server = buildServer({ db: platform.db, temporal: platform.env.client, rateLimiter: new RateLimiter(() => ({ ratePerSecond: 1000, burst: 1000 })) }, { logger });
    await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      const customer = await newCustomer();
      const method = await paymentMethod();
      await stripeDown();
      let response: Response;
      try {
        response = await fetch(`http://127.0.0.1:${(server.server.address() as AddressInfo).port}/v2/payment-instruments/attach`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${platform.rootSecret}` },
          body: JSON.stringify({ customer_id: customer.id, provider: 'stripe', payment_method_id: method.id }),
        });
      } finally {
        await stripeBack();
      }
      expect(response.status).toBe(503);
      const warned = lines.map((line) => JSON.parse(line) as Record<string, any>).filter((line) => line.msg === 'payment provider unavailable');
      expect(warned).toEqual([
        expect.objectContaining({ level: 'warn', request_id: response.headers.get('request-id'), provider: 'stripe', path: '/v2/payment-instruments/attach', err: expect.objectContaining({ type: 'StripeConnectionError' }) }),
      ]);
      expect(lines.join('')).not.toContain(SECRET_KEY);
    } finally {
      await server.close();
    }
  });

  it('keeps a refusal Stripe states about the request a 422, not a 503', async () => {
    const customer = await newCustomer();
    const unknown = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: 'pm_NoSuchCardHere01' });
    expect(unknown).toMatchObject({ status: 422, body: { code: 'PROVIDER_REFERENCE_NOT_FOUND' } });
    expect(unknown.headers.get('retry-after')).toBeNull();
  });
});

describe('a Stripe call that gets no answer in time', () => {
  it('is PROVIDER_UNAVAILABLE too (the SDK’s timeout, shortened here from the connection’s 20 s)', async () => {
    const silent = createServer(() => {
      // Takes the request, never answers.
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const client = new Stripe('sk_test_silent0001', { host: '127.0.0.1', port: (silent.address() as AddressInfo).port, protocol: 'http', timeout: 200, maxNetworkRetries: 0 });
      await expect(askStripe(() => client.paymentMethods.retrieve('pm_silent0001'), 'payment_method_id', 'pm_silent0001')).rejects.toMatchObject({
        code: 'PROVIDER_UNAVAILABLE',
        context: { provider: 'stripe', retryable: true },
      });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe('the API reference', () => {
  const document: any = openApiDocument('http://localhost:3000');
  const responsesOf = (path: string) => document.paths[path].post.responses;

  it('lists 503 PROVIDER_UNAVAILABLE with its Retry-After for attach, which asks Stripe, and for no operation that asks no provider', () => {
    const unavailable = responsesOf('/v2/payment-instruments/attach')['503'];
    expect(unavailable.headers['Retry-After']).toMatchObject({ required: true, schema: { type: 'integer', minimum: 1 } });
    const schema = unavailable.content['application/json'].schema;
    expect(schema.properties.code.enum).toEqual(['PROVIDER_UNAVAILABLE']);
    expect(schema.properties.context).toMatchObject({ required: ['provider', 'retryable'], properties: { retryable: { const: true } } });
    const others = Object.keys(document.paths).filter((path) => path !== '/v2/payment-instruments/attach' && responsesOf(path)['503']);
    expect(others).toEqual([]);
  });
});
