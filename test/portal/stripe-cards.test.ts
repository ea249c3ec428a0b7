import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Stripe from 'stripe';
import { PROVIDER_RETRY_AFTER_SECONDS } from '../../api/errors/retry-after';
import { createAccount, createChannel, createOperatorApiKey } from '../../scripts/operator/accounts';
import { connectStripe } from '../../services/payments/providers/stripe/connection';
import { merchant } from '../invoices-payments/fixtures';
import { usePlatform } from '../support/platform';
import { startLocalstripe, stripeClientFor, type StripeEmulator } from '../support/stripe-emulators';
import { PortalClient, portalSignIn } from './portal-client';

/**
 * docs/portal.md, Stripe: a customer of a Stripe-connected account saves a card with Stripe.js
 * against a SetupIntent (localstripe standing in for Stripe, its confirm called as
 * localstripe-v3.js calls it from the page, with the publishable key alone) and pays with it;
 * another customer's SetupIntent is refused; the sandbox card form and the sandbox account keep
 * to their own. The account reaches localstripe through a proxy that records what is sent and can
 * fail as an unavailable Stripe.
 */
const platform = usePlatform();
const m = merchant(platform);
const SECRET_KEY = 'sk_test_portalcards0001';
const PUBLISHABLE_KEY = 'pk_test_portalcards0001';
const nextYear = new Date().getUTCFullYear() + 1;

let emulator: StripeEmulator;
/** The merchant's Stripe seen with the secret key: what Stripe holds, to check against. */
let stripe: Stripe;
let proxy: Server;
const sent: { method: string; path: string; idempotencyKey?: string }[] = [];
/** Set: the proxy answers as a Stripe that is down (a 503), sending nothing on. */
let stripeFailing = false;

beforeAll(async () => {
  delete process.env.STRIPE_JS_URL;
  emulator = await startLocalstripe();
  stripe = stripeClientFor(emulator, SECRET_KEY);
  proxy = createServer((incoming, outgoing) => {
    sent.push({
      method: incoming.method!,
      path: incoming.url!.split('?')[0]!,
      ...(incoming.headers['idempotency-key'] ? { idempotencyKey: String(incoming.headers['idempotency-key']) } : {}),
    });
    if (stripeFailing) {
      incoming.resume();
      outgoing.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'api_error', message: 'down' } }));
      return;
    }
    const upstream = forward({ host: emulator.host, port: emulator.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(outgoing);
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const apiBase = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  await connectStripe(
    platform.db,
    platform.accountId,
    { secretKey: SECRET_KEY, webhookSecret: 'whsec_portalcards0001', apiBase, publishableKey: PUBLISHABLE_KEY, connectedBy: 'operator' },
    new Date(),
  );
});

afterEach(() => {
  stripeFailing = false;
  delete process.env.STRIPE_JS_URL;
});

afterAll(() => new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve())));

async function signedIn(): Promise<{ customerId: string; portal: PortalClient }> {
  const customerId = await m.customer();
  return { customerId, portal: await portalSignIn(platform, customerId) };
}

/**
 * What localstripe-v3.js's confirmCardSetup sends from the customer's browser: the card to
 * localstripe itself, authenticated by the publishable key and the SetupIntent's client secret,
 * never through the platform.
 */
async function confirmInBrowser(clientSecret: string, number = '4242424242424242'): Promise<{ status: number; body: any }> {
  const setupIntentId = /^(seti_\w+)_secret_/.exec(clientSecret)![1];
  const response = await fetch(`${emulator.url}/v1/setup_intents/${setupIntentId}/confirm`, {
    method: 'POST',
    body: JSON.stringify({
      key: PUBLISHABLE_KEY,
      use_stripe_sdk: true,
      client_secret: clientSecret,
      payment_method_data: { type: 'card', card: { number, exp_month: '8', exp_year: String(nextYear), cvc: '123' } },
    }),
  });
  return { status: response.status, body: await response.json() };
}

describe('session/me on a Stripe-connected account', () => {
  it('names Stripe with the publishable key and where Stripe.js comes from (STRIPE_JS_URL, else Stripe’s)', async () => {
    const { portal } = await signedIn();
    expect((await portal.ok('session/me')).payment_provider).toEqual({ kind: 'STRIPE', publishable_key: PUBLISHABLE_KEY, js_url: 'https://js.stripe.com/v3/' });
    process.env.STRIPE_JS_URL = `${emulator.url}/js.stripe.com/v3/`;
    expect((await portal.ok('session/me')).payment_provider).toEqual({ kind: 'STRIPE', publishable_key: PUBLISHABLE_KEY, js_url: `${emulator.url}/js.stripe.com/v3/` });
  });
});

describe('saving a card with a SetupIntent', () => {
  it('makes a SetupIntent for the customer’s mirror, off-session, cards only; the confirmed card is attached, listed, and pays an invoice', async () => {
    const { customerId, portal } = await signedIn();
    sent.length = 0;
    const intent = await portal.ok('payment-instruments/create-setup-intent');
    expect(intent).toEqual({ client_secret: expect.stringMatching(/^seti_\w+_secret_\w+$/), setup_intent_id: expect.stringMatching(/^seti_/) });
    expect(intent.client_secret.startsWith(`${intent.setup_intent_id}_secret_`)).toBe(true);

    const mirror = await platform.db.stripeCustomer.findUniqueOrThrow({ where: { customerId } });
    const atStripe = await stripe.setupIntents.retrieve(intent.setup_intent_id);
    expect(atStripe).toMatchObject({
      customer: mirror.stripeCustomerId,
      usage: 'off_session',
      payment_method_types: ['card'],
      metadata: { bp_customer_id: customerId, bp_account_id: platform.accountId },
      status: 'requires_payment_method',
    });
    // The mirror under its own key, the SetupIntent under one of the request's.
    expect(sent.filter((request) => request.method === 'POST')).toEqual([
      { method: 'POST', path: '/v1/customers', idempotencyKey: `bp-customer/${customerId}` },
      { method: 'POST', path: '/v1/setup_intents', idempotencyKey: expect.stringMatching(new RegExp(`^bp-setup-intent/${customerId}/`)) },
    ]);

    // Not confirmed yet: nothing to save.
    const early = await portal.post('payment-instruments/attach', { setup_intent_id: intent.setup_intent_id });
    expect(early).toMatchObject({ status: 422, body: { code: 'SETUP_INTENT_NOT_SUCCEEDED', context: { status: 'requires_payment_method' } } });

    const confirmed = await confirmInBrowser(intent.client_secret);
    expect(confirmed).toMatchObject({ status: 200, body: { status: 'succeeded', payment_method: expect.stringMatching(/^pm_/) } });
    const attached = await portal.post('payment-instruments/attach', { setup_intent_id: intent.setup_intent_id });
    expect(attached.status).toBe(200);
    expect(attached.body).toMatchObject({
      customer_id: customerId,
      provider: 'stripe',
      provider_reference: confirmed.body.payment_method,
      status: 'ACTIVE',
      card: { brand: 'VISA', last4: '4242', exp_month: 8, exp_year: nextYear },
    });
    expect((await stripe.paymentMethods.retrieve(confirmed.body.payment_method)).customer).toBe(mirror.stripeCustomerId);

    const listed = await portal.ok('payment-instruments/list');
    expect(listed.data.map((instrument: { id: string; provider: string; card: { last4: string } }) => [instrument.id, instrument.provider, instrument.card.last4])).toEqual([
      [attached.body.id, 'stripe', '4242'],
    ]);
    const audited = await platform.db.dashboardAuditEntry.findMany({ where: { accountId: platform.accountId, userId: customerId } });
    expect(audited.map((entry) => [entry.actorType, entry.action])).toEqual([['CUSTOMER', 'payment-instruments/attach']]);

    const invoice = await m.openInvoice(customerId, { amount: 3_100, collection_method: 'SEND_INVOICE' });
    const paid = await portal.ok('invoices/pay', { id: invoice.id, payment_instrument_id: attached.body.id });
    expect(paid).toMatchObject({ invoice: { id: invoice.id, status: 'PAID' }, payment: { status: 'SUCCEEDED', provider: 'stripe', amount: 3_100 } });
    const charged = await stripe.paymentIntents.retrieve(paid.payment.provider_reference);
    expect(charged).toMatchObject({ status: 'succeeded', amount: 3_100, customer: mirror.stripeCustomerId, payment_method: confirmed.body.payment_method });
  });

  it('asks Stripe under one key per request: a retry with the same Idempotency-Key under the same key, another request under another', async () => {
    const { customerId, portal } = await signedIn();
    await portal.ok('payment-instruments/create-setup-intent');
    const intentKeys = () => sent.filter((request) => request.path === '/v1/setup_intents').map((request) => request.idempotencyKey);
    sent.length = 0;
    await portal.ok('payment-instruments/create-setup-intent', {}, { 'idempotency-key': 'add-card-1' });
    await portal.ok('payment-instruments/create-setup-intent', {}, { 'idempotency-key': 'add-card-1' });
    await portal.ok('payment-instruments/create-setup-intent', {}, { 'idempotency-key': 'add-card-2' });
    await portal.ok('payment-instruments/create-setup-intent');
    await portal.ok('payment-instruments/create-setup-intent');
    const [first, retried, second, keyless, keylessAgain] = intentKeys();
    expect(retried).toBe(first);
    expect(new Set([first, second, keyless, keylessAgain]).size).toBe(4);
    for (const key of [first, second, keyless, keylessAgain]) {
      expect(key).toMatch(new RegExp(`^bp-setup-intent/${customerId}/[A-Za-z0-9_-]+$`));
      expect(key!.length).toBeLessThanOrEqual(255);
    }
    // A key longer than Stripe takes is hashed into one it does.
    sent.length = 0;
    await portal.ok('payment-instruments/create-setup-intent', {}, { 'idempotency-key': 'k'.repeat(255) });
    expect(intentKeys()[0]!.length).toBeLessThanOrEqual(255);

    const malformed = await portal.post('payment-instruments/create-setup-intent', {}, { headers: { 'idempotency-key': 'with space' } });
    expect(malformed).toMatchObject({ status: 400, body: { code: 'VALIDATION', context: { constraints: { 'Idempotency-Key': { type: 'FORMAT' } } } } });
  });

  it('answers 503 PROVIDER_UNAVAILABLE with Retry-After while Stripe is down', async () => {
    const { customerId, portal } = await signedIn();
    stripeFailing = true;
    const refused = await portal.post('payment-instruments/create-setup-intent');
    expect({ status: refused.status, retryAfter: refused.headers.get('retry-after'), body: refused.body }).toEqual({
      status: 503,
      retryAfter: String(PROVIDER_RETRY_AFTER_SECONDS),
      body: { code: 'PROVIDER_UNAVAILABLE', message: expect.stringContaining('Stripe'), context: { provider: 'stripe', retryable: true } },
    });
    expect(await platform.db.stripeCustomer.count({ where: { customerId } })).toBe(0);
    stripeFailing = false;
    expect((await portal.post('payment-instruments/create-setup-intent')).status).toBe(200);
  });
});

describe('refusals', () => {
  it('refuses another customer’s SetupIntent, confirmed or not, saving nothing', async () => {
    const owner = await signedIn();
    const intruder = await signedIn();
    const intent = await owner.portal.ok('payment-instruments/create-setup-intent');
    await confirmInBrowser(intent.client_secret);

    const refused = await intruder.portal.post('payment-instruments/attach', { setup_intent_id: intent.setup_intent_id });
    expect(refused).toMatchObject({ status: 422, body: { code: 'PAYMENT_METHOD_OF_ANOTHER_CUSTOMER', context: { setup_intent_id: intent.setup_intent_id } } });
    expect(await platform.db.paymentInstrument.count({ where: { customerId: intruder.customerId } })).toBe(0);
    // localstripe leaves a confirmed SetupIntent's card unattached: the SetupIntent alone decided it.
    const method = (await stripe.setupIntents.retrieve(intent.setup_intent_id)).payment_method as string;
    expect((await stripe.paymentMethods.retrieve(method)).customer).toBeNull();

    // The owner still saves it.
    expect((await owner.portal.post('payment-instruments/attach', { setup_intent_id: intent.setup_intent_id })).status).toBe(200);
    // Through /v2 the same: a SetupIntent made for another Stripe customer is refused.
    const direct = await platform.call('/v2/payment-instruments/attach', { customer_id: intruder.customerId, provider: 'stripe', setup_intent_id: intent.setup_intent_id });
    expect(direct).toMatchObject({ status: 422, body: { code: 'PAYMENT_METHOD_OF_ANOTHER_CUSTOMER' } });
  });

  it('refuses a customer a SetupIntent made for no customer, which the merchant itself may attach', async () => {
    const { customerId, portal } = await signedIn();
    const loose = await stripe.setupIntents.create({ usage: 'off_session', ...({ payment_method_types: ['card'] } as object) });
    await confirmInBrowser(loose.client_secret!);
    const refused = await portal.post('payment-instruments/attach', { setup_intent_id: loose.id });
    expect(refused).toMatchObject({ status: 422, body: { code: 'PAYMENT_METHOD_OF_ANOTHER_CUSTOMER', context: { setup_intent_id: loose.id } } });
    expect(await platform.db.paymentInstrument.count({ where: { customerId } })).toBe(0);
    const byMerchant = await platform.call('/v2/payment-instruments/attach', { customer_id: customerId, provider: 'stripe', setup_intent_id: loose.id });
    expect(byMerchant.status).toBe(200);
  });

  it('refuses a SetupIntent id of the wrong shape before asking Stripe', async () => {
    const { portal } = await signedIn();
    const refused = await portal.post('payment-instruments/attach', { setup_intent_id: 'pm_123' });
    expect(refused).toMatchObject({ status: 400, body: { code: 'VALIDATION', context: { constraints: { setup_intent_id: { type: 'FORMAT' } } } } });
  });

  it('refuses the sandbox card form: card numbers must not reach the platform of a Stripe account', async () => {
    const { customerId, portal } = await signedIn();
    const refused = await portal.post('payment-instruments/add-card', { card: { number: '4242424242424242', exp_month: 8, exp_year: nextYear } });
    expect(refused).toMatchObject({ status: 422, body: { code: 'TOKENIZE_NOT_ALLOWED', context: { provider: 'stripe' } } });
    expect(await platform.db.paymentInstrument.count({ where: { customerId } })).toBe(0);
  });

  it('refuses a SetupIntent on an account charging through the sandbox: 422 PROVIDER_NOT_CONNECTED', async () => {
    const account = await createAccount(platform.db, 'On the sandbox');
    await createChannel(platform.db, account.id, 'web');
    const { secret } = await createOperatorApiKey(platform.db, { accountId: account.id, name: 'root' });
    const created = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'sandbox@example.com' }, { secret });
    const link = await platform.call('/v2/customer-portal-sessions/create', { customer_id: created.body.id }, { secret });
    const portal = new PortalClient(platform);
    const me = await portal.signIn(link.body.url);
    expect(me.payment_provider).toEqual({ kind: 'SANDBOX' });

    const refused = await portal.post('payment-instruments/create-setup-intent');
    expect(refused).toMatchObject({ status: 422, body: { code: 'PROVIDER_NOT_CONNECTED', context: { provider: 'stripe' } } });
    const attach = await portal.post('payment-instruments/attach', { setup_intent_id: 'seti_123' });
    expect(attach).toMatchObject({ status: 422, body: { code: 'PROVIDER_NOT_CONNECTED' } });
    expect(await platform.db.stripeCustomer.count({ where: { customerId: created.body.id } })).toBe(0);
  });
});

describe('the hosted invoice page on a Stripe-connected account', () => {
  async function hosted(action: string, body: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${platform.baseUrl}/portal/api/hosted-invoices/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  }
  const tokenOf = (invoice: { hosted_invoice_url: string }) => invoice.hosted_invoice_url.split('/').pop()!;

  it('pays with a card saved through a SetupIntent of the invoice’s customer, not made its default', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId, { amount: 2_700, collection_method: 'SEND_INVOICE' });
    const token = tokenOf(invoice);
    expect((await hosted('get', { token })).body.payment_provider).toEqual({ kind: 'STRIPE', publishable_key: PUBLISHABLE_KEY, js_url: 'https://js.stripe.com/v3/' });

    const intent = await hosted('create-setup-intent', { token });
    expect(intent).toMatchObject({ status: 200, body: { client_secret: expect.stringMatching(/^seti_/), setup_intent_id: expect.stringMatching(/^seti_/) } });
    const mirror = await platform.db.stripeCustomer.findUniqueOrThrow({ where: { customerId } });
    expect((await stripe.setupIntents.retrieve(intent.body.setup_intent_id)).customer).toBe(mirror.stripeCustomerId);
    await confirmInBrowser(intent.body.client_secret);

    const paid = await hosted('pay', { token, setup_intent_id: intent.body.setup_intent_id }, { 'idempotency-key': `hosted-${invoice.id}` });
    expect(paid).toMatchObject({ status: 200, body: { invoice: { id: invoice.id, status: 'PAID' }, payment: { status: 'SUCCEEDED', provider: 'stripe', amount: 2_700 } } });
    const instruments = await platform.db.paymentInstrument.findMany({ where: { customerId } });
    expect(instruments.map((instrument) => [instrument.provider, instrument.last4])).toEqual([['stripe', '4242']]);
    expect((await m.ok('customers/get', { id: customerId })).configuration?.default_payment_instrument_id).toBeUndefined();

    // Paid: no SetupIntent for it any more.
    expect(await hosted('create-setup-intent', { token })).toMatchObject({ status: 422, body: { code: 'INCOMPATIBLE_STATUS' } });
  });

  it('refuses another customer’s SetupIntent, and a body naming both a card and a SetupIntent', async () => {
    const owner = await signedIn();
    const intent = await owner.portal.ok('payment-instruments/create-setup-intent');
    await confirmInBrowser(intent.client_secret);
    const invoice = await m.openInvoice(await m.customer(), { amount: 900, collection_method: 'SEND_INVOICE' });
    const token = tokenOf(invoice);

    const refused = await hosted('pay', { token, setup_intent_id: intent.setup_intent_id });
    expect(refused).toMatchObject({ status: 422, body: { code: 'PAYMENT_METHOD_OF_ANOTHER_CUSTOMER', context: { setup_intent_id: intent.setup_intent_id } } });
    const both = await hosted('pay', { token, setup_intent_id: intent.setup_intent_id, card: { number: '4242424242424242', exp_month: 8, exp_year: nextYear } });
    expect(both).toMatchObject({ status: 400, body: { code: 'VALIDATION', context: { constraints: { card: expect.anything() } } } });
    expect((await m.ok('invoices/get', { id: invoice.id })).status).toBe('OPEN');
    expect(await platform.db.payment.count({ where: { invoiceId: invoice.id } })).toBe(0);
  });
});
