import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Stripe from 'stripe';
import { createStripeSetupIntent } from '../../services/payment-instruments/stripe-setup-intent';
import { connectStripe } from '../../services/payments/providers/stripe/connection';
import { usePlatform } from '../support/platform';
import { startStripeMock, stripeClientFor, type StripeEmulator } from '../support/stripe-emulators';

/**
 * Issue 41, item 2, the SDK contract: every request payment-instruments/attach sends Stripe is
 * one stripe-mock accepts (it validates each against Stripe's OpenAPI document and answers 400
 * otherwise). The account is connected through a recording proxy in front of stripe-mock, so
 * the requests are seen as they went out.
 */
const platform = usePlatform();
let emulator: StripeEmulator;
let proxy: Server;
const sent: { method: string; path: string; status: number; idempotencyKey?: string }[] = [];

beforeAll(async () => {
  emulator = await startStripeMock();
  proxy = createServer((incoming, outgoing) => {
    const upstream = forward(
      { host: emulator.host, port: emulator.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        sent.push({
          method: incoming.method!,
          path: incoming.url!.split('?')[0]!,
          status: answer.statusCode!,
          ...(incoming.headers['idempotency-key'] ? { idempotencyKey: String(incoming.headers['idempotency-key']) } : {}),
        });
        outgoing.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const apiBase = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  await connectStripe(platform.db, platform.accountId, { secretKey: 'sk_test_contract0001', webhookSecret: 'whsec_contract0001', apiBase, connectedBy: 'operator' }, new Date());
});

afterAll(() => new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve())));

async function newCustomer() {
  const res = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'contract@example.com', first_name: 'Grace', last_name: 'Hopper' });
  expect(res.status).toBe(200);
  return res.body as { id: string };
}

describe('payment-instruments/attach against stripe-mock', () => {
  it('sends only requests Stripe’s OpenAPI accepts: the PaymentMethod read, the mirror created under its key, the attach; and the SetupIntent read', async () => {
    const customer = await newCustomer();
    sent.length = 0;
    const attached = await platform.call('/v2/payment-instruments/attach', { customer_id: customer.id, provider: 'stripe', payment_method_id: 'pm_contract0001' });
    expect(attached.status).toBe(200);
    // stripe-mock answers a PaymentMethod not yet attached to anyone, so it is attached.
    expect(sent).toEqual([
      { method: 'GET', path: '/v1/payment_methods/pm_contract0001', status: 200 },
      { method: 'POST', path: '/v1/customers', status: 200, idempotencyKey: `bp-customer/${customer.id}` },
      // The SDK keys every POST of its own accord; the attach needs none of ours (attaching again to the same customer changes nothing).
      { method: 'POST', path: '/v1/payment_methods/pm_contract0001/attach', status: 200, idempotencyKey: expect.stringMatching(/^stripe-node-retry-/) },
    ]);
    const mirror = await platform.db.stripeCustomer.findUniqueOrThrow({ where: { customerId: customer.id } });
    expect(attached.body).toMatchObject({ provider: 'stripe', provider_reference: 'pm_contract0001', status: 'ACTIVE' });
    const stored = await platform.db.paymentInstrument.findUniqueOrThrow({ where: { id: attached.body.id } });
    expect(stored.providerCustomerReference).toBe(mirror.stripeCustomerId);

    sent.length = 0;
    // stripe-mock's SetupIntent still awaits its card: read, then refused by us, not by Stripe.
    const intent = await platform.call('/v2/payment-instruments/attach', { customer_id: customer.id, provider: 'stripe', setup_intent_id: 'seti_contract0001' });
    expect(intent.body.code).toBe('SETUP_INTENT_NOT_SUCCEEDED');
    expect(sent).toEqual([{ method: 'GET', path: '/v1/setup_intents/seti_contract0001', status: 200 }]);

    // The check has teeth: a request stripe-mock refuses is recorded with its 400.
    sent.length = 0;
    const stripe = stripeClientFor({ ...emulator, host: '127.0.0.1', port: (proxy.address() as AddressInfo).port }, 'sk_test_contract0001');
    await expect(stripe.customers.create({ no_such_parameter: 'x' } as Stripe.CustomerCreateParams)).rejects.toMatchObject({ statusCode: 400 });
    expect(sent).toEqual([{ method: 'POST', path: '/v1/customers', status: 400, idempotencyKey: expect.any(String) }]);
  });
});

describe('the portal’s SetupIntent against stripe-mock', () => {
  it('is a request Stripe’s OpenAPI accepts (`payment_method_types`, which the SDK’s types no longer name), under the request’s key', async () => {
    const customer = await newCustomer();
    sent.length = 0;
    const intent = await createStripeSetupIntent(platform.db, { accountId: platform.accountId, customerId: customer.id }, 'portal-request-1', new Date());
    expect(intent).toEqual({ client_secret: expect.stringMatching(/^seti_\w+_secret_/), setup_intent_id: expect.stringMatching(/^seti_/) });
    expect(sent).toEqual([
      { method: 'POST', path: '/v1/customers', status: 200, idempotencyKey: `bp-customer/${customer.id}` },
      { method: 'POST', path: '/v1/setup_intents', status: 200, idempotencyKey: expect.stringMatching(new RegExp(`^bp-setup-intent/${customer.id}/`)) },
    ]);
  });
});
