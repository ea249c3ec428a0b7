import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { isListening } from '../../scripts/net/is-listening';
import {
  registerLocalstripeWebhook,
  resetLocalstripe,
  startLocalstripe,
  startStripeMock,
  stripeClientFor,
  type StripeEmulator,
} from '../support/stripe-emulators';

/** A signed delivery as it reached the receiver: the bytes the signature covers and its header. */
interface Delivery {
  body: Buffer;
  signature: string;
}

/** A local endpoint for localstripe's webhooks that keeps every delivery and answers 200. */
async function startReceiver(): Promise<{ server: Server; url: string; deliveries: Delivery[] }> {
  const deliveries: Delivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push({ body: Buffer.concat(chunks), signature: String(request.headers['stripe-signature']) });
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/stripe`, deliveries };
}

async function waitFor<T>(find: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`nothing arrived within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('stripe-mock', () => {
  let mock: StripeEmulator;
  let stripe: Stripe;

  beforeAll(async () => {
    mock = await startStripeMock();
    stripe = stripeClientFor(mock);
  }, 600_000);

  it('answers the SDK with objects of the requested kind', async () => {
    const customer = await stripe.customers.create({ email: 'payer@example.com' });
    expect(customer.object).toBe('customer');
    expect(customer.id).toMatch(/^cus_/);
  });

  it("refuses a request Stripe's OpenAPI does not accept", async () => {
    const refused = stripe.customers.create({ no_such_parameter: 'x' } as Stripe.CustomerCreateParams);
    await expect(refused).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  });
});

describe('localstripe', () => {
  let localstripe: StripeEmulator;
  let stripe: Stripe;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const secret = `whsec_${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    localstripe = await startLocalstripe();
    stripe = stripeClientFor(localstripe);
    receiver = await startReceiver();
    await registerLocalstripeWebhook(localstripe, 'test', { url: receiver.url, secret, events: ['payment_intent.succeeded'] });
  }, 600_000);

  afterAll(async () => {
    if (receiver) await new Promise((resolve) => receiver.server.close(resolve));
  });

  it('keeps what it was sent, and forgets it when emptied', async () => {
    const customer = await stripe.customers.create({ email: 'kept@example.com', metadata: { ours: 'cust_1' } });
    const read = await stripe.customers.retrieve(customer.id);
    expect(read).toMatchObject({ id: customer.id, email: 'kept@example.com', metadata: { ours: 'cust_1' } });
    await resetLocalstripe(localstripe);
    await expect(stripe.customers.retrieve(customer.id)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('charges off-session and sends a signed payment_intent.succeeded the SDK verifies', async () => {
    const customer = await stripe.customers.create({ email: 'payer@example.com' });
    const method = await stripe.paymentMethods.create({ type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' } } as Stripe.PaymentMethodCreateParams);
    await stripe.paymentMethods.attach(method.id, { customer: customer.id });
    const intent = await stripe.paymentIntents.create({ amount: 1250, currency: 'eur', customer: customer.id, payment_method: method.id, off_session: true, confirm: true });
    expect(intent.status).toBe('succeeded');

    const delivery = await waitFor(() => receiver.deliveries.find((d) => JSON.parse(d.body.toString()).data?.object?.id === intent.id));
    const event = stripe.webhooks.constructEvent(delivery.body, delivery.signature, secret);
    expect(event.type).toBe('payment_intent.succeeded');
    expect(event.data.object).toMatchObject({ id: intent.id, amount: 1250, currency: 'eur' });
    expect(() => stripe.webhooks.constructEvent(delivery.body, delivery.signature, `whsec_${randomBytes(16).toString('hex')}`)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });
});

describe('an emulator stopped', () => {
  it('no longer listens, and stopping it again is harmless', async () => {
    const emulator = await startLocalstripe();
    await emulator.stop();
    expect(await isListening(emulator.port)).toBe(false);
    await expect(emulator.stop()).resolves.toBeUndefined();
  });
});
