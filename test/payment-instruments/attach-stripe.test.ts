import type Stripe from 'stripe';
import { sealSecret } from '../../domain/secret-box';
import { stripeSecretPurpose } from '../../domain/stripe-credentials';
import { paymentInstrumentExpiryWorkflowId } from '../../domain/workflow-ids';
import { createAccount, createChannel, createOperatorApiKey } from '../../scripts/operator/accounts';
import { connectStripe } from '../../services/payments/providers/stripe/connection';
import { secretsKey } from '../../services/secrets/secrets-key';
import { merchant } from '../invoices-payments/fixtures';
import { usePlatform } from '../support/platform';
import { startLocalstripe, stripeClientFor, type StripeEmulator } from '../support/stripe-emulators';

/**
 * Issue 41, item 2: a card the customer's browser gave Stripe becomes our instrument through
 * payment-instruments/attach, against localstripe: from a PaymentMethod or a SetupIntent,
 * attached to the customer's Stripe mirror made once, refused when it cannot be charged for the
 * customer; tokenize refused once the account holds its cards at Stripe; a sandbox account as before.
 */
const platform = usePlatform();
let emulator: StripeEmulator;
/** The merchant's own Stripe: what their front end and back end do with Stripe.js and their key. */
let stripe: Stripe;
/** An account on the sandbox, never connected to Stripe. */
let sandbox: { secret: string; channelId: string };

const nextYear = new Date().getUTCFullYear() + 1;

beforeAll(async () => {
  emulator = await startLocalstripe();
  const secretKey = 'sk_test_attachtests0001';
  await connectStripe(platform.db, platform.accountId, { secretKey, webhookSecret: 'whsec_attachtests0001', apiBase: emulator.url, connectedBy: 'operator' }, new Date());
  stripe = stripeClientFor(emulator, secretKey);
  const account = await createAccount(platform.db, 'On the sandbox');
  const channel = await createChannel(platform.db, account.id, 'web');
  sandbox = { secret: (await createOperatorApiKey(platform.db, { accountId: account.id, name: 'root' })).secret, channelId: channel.id };
});

const attach = (body: Record<string, unknown>, options: Parameters<typeof platform.call>[2] = {}) => platform.call('/v2/payment-instruments/attach', body, options);

async function newCustomer(body: Record<string, unknown> = {}, secret?: string) {
  const res = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'saved-card@example.com', ...body }, { secret });
  expect(res.status).toBe(200);
  return res.body as { id: string; channel_id: string };
}

/** What Stripe.js does in the customer's browser with the card number: a PaymentMethod, the number never sent to us. */
function paymentMethod(number = '4242424242424242', card: { exp_month?: number; exp_year?: number } = {}, name?: string) {
  return stripe.paymentMethods.create({
    type: 'card',
    card: { number, exp_month: card.exp_month ?? 8, exp_year: card.exp_year ?? nextYear, cvc: '123' },
    ...(name ? { billing_details: { name } } : {}),
  } as Stripe.PaymentMethodCreateParams);
}

/** The SetupIntent flow: the merchant's back end creates it, Stripe.js confirms it with the card. */
async function setupIntent(number: string) {
  const intent = await stripe.setupIntents.create({ usage: 'off_session' });
  const method = await paymentMethod(number);
  try {
    return await stripe.setupIntents.confirm(intent.id, { payment_method: method.id });
  } catch {
    // A card the issuer refuses leaves the SetupIntent unsucceeded, as a real one would be.
    return stripe.setupIntents.retrieve(intent.id);
  }
}

async function mirrorsOf(customerId: string) {
  return platform.db.stripeCustomer.findMany({ where: { customerId } });
}

async function createdEventsOf(instrumentId: string) {
  const rows = await platform.db.outboxEvent.findMany({ where: { eventType: 'PAYMENT_INSTRUMENT_CREATED' } });
  return rows.filter((row) => (row.data as { payment_instrument: { id: string } }).payment_instrument.id === instrumentId);
}

describe('payment-instruments/attach with Stripe (localstripe)', () => {
  it('saves a PaymentMethod: attached to the customer’s new Stripe mirror, brand, last four, expiry and Stripe’s fingerprint kept, expiring by itself', async () => {
    const customer = await newCustomer({ first_name: 'Ada', last_name: 'Lovelace', channel_id: platform.channelIds[1] });
    const method = await paymentMethod('4242424242424242', {}, 'Ada Lovelace');
    const res = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: method.id });
    expect(res.status).toBe(200);

    const [mirror] = await mirrorsOf(customer.id);
    expect(mirror).toMatchObject({ accountId: platform.accountId, stripeCustomerId: expect.stringMatching(/^cus_/) });
    expect(res.body).toEqual({
      id: expect.stringMatching(/^pi_/),
      customer_id: customer.id,
      channel_id: platform.channelIds[1],
      type: 'CARD',
      card: {
        brand: 'VISA',
        last4: method.card!.last4,
        exp_month: method.card!.exp_month,
        exp_year: method.card!.exp_year,
        cardholder_name: 'Ada Lovelace',
        fingerprint: `stripe:${method.card!.fingerprint}`,
      },
      provider: 'stripe',
      provider_reference: method.id,
      status: 'ACTIVE',
      created_at: expect.stringMatching(/\.\d{6}Z$/),
      updated_at: res.body.created_at,
    });

    // At Stripe: the card is attached to the mirror, which names our customer.
    expect((await stripe.paymentMethods.retrieve(method.id)).customer).toBe(mirror!.stripeCustomerId);
    const stripeCustomer = (await stripe.customers.retrieve(mirror!.stripeCustomerId)) as Stripe.Customer;
    expect(stripeCustomer).toMatchObject({ email: 'saved-card@example.com', name: 'Ada Lovelace', metadata: { bp_customer_id: customer.id, bp_account_id: platform.accountId } });

    const stored = await platform.db.paymentInstrument.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored).toMatchObject({ sandboxScenario: null, provider: 'stripe', providerReference: method.id, providerCustomerReference: mirror!.stripeCustomerId });
    expect((await platform.call('/v2/payment-instruments/get', { id: res.body.id })).body).toEqual(res.body);
    const workflow = await platform.env.client.workflow.getHandle(paymentInstrumentExpiryWorkflowId(res.body.id)).describe();
    expect(workflow.status.name).toBe('RUNNING');
    expect((await createdEventsOf(res.body.id)).map((e) => e.data)).toEqual([{ payment_instrument: res.body }]);
  });

  it('answers the same PaymentMethod attached again with the ACTIVE instrument it already is, and a replayed Idempotency-Key with the first answer', async () => {
    const customer = await newCustomer();
    const method = await paymentMethod();
    const first = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: method.id }, { headers: { 'idempotency-key': `attach-${method.id}` } });
    const again = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: method.id });
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const replay = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: method.id }, { headers: { 'idempotency-key': `attach-${method.id}` } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await platform.db.paymentInstrument.count({ where: { providerReference: method.id } })).toBe(1);
    expect(await createdEventsOf(first.body.id)).toHaveLength(1);

    // Revoked, the card is saved anew: a revoked instrument is never charged again.
    expect((await platform.call('/v2/payment-instruments/revoke', { id: first.body.id })).status).toBe(200);
    const renewed = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: method.id });
    expect(renewed.status).toBe(200);
    expect(renewed.body.id).not.toBe(first.body.id);
  });

  it('saves the card of a succeeded SetupIntent, to the mirror the customer already has', async () => {
    const customer = await newCustomer();
    const first = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: (await paymentMethod('5555555555554444')).id });
    expect(first.status).toBe(200);
    const intent = await setupIntent('4242424242424242');
    expect(intent.status).toBe('succeeded');

    const res = await attach({ customer_id: customer.id, provider: 'stripe', setup_intent_id: intent.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ customer_id: customer.id, provider: 'stripe', provider_reference: intent.payment_method, status: 'ACTIVE', card: { last4: '4242' } });
    const mirrors = await mirrorsOf(customer.id);
    expect(mirrors).toHaveLength(1);
    expect((await stripe.paymentMethods.retrieve(intent.payment_method as string)).customer).toBe(mirrors[0]!.stripeCustomerId);
    const stored = await platform.db.paymentInstrument.findMany({ where: { customerId: customer.id }, select: { providerCustomerReference: true } });
    expect(stored.map((s) => s.providerCustomerReference)).toEqual([mirrors[0]!.stripeCustomerId, mirrors[0]!.stripeCustomerId]);
  });

  it('makes one mirror row for attaches of one customer racing each other, and every card on it', async () => {
    const customer = await newCustomer();
    const methods = await Promise.all([paymentMethod(), paymentMethod(), paymentMethod()]);
    const answers = await Promise.all(methods.map((m) => attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: m.id })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const mirrors = await mirrorsOf(customer.id);
    expect(mirrors).toHaveLength(1);
    const stripeCustomerId = mirrors[0]!.stripeCustomerId;
    for (const method of methods) expect((await stripe.paymentMethods.retrieve(method.id)).customer).toBe(stripeCustomerId);
    const stored = await platform.db.paymentInstrument.findMany({ where: { customerId: customer.id } });
    expect(stored.map((s) => s.providerCustomerReference)).toEqual([stripeCustomerId, stripeCustomerId, stripeCustomerId]);
  });

  it('gives a card an invoice is then paid with through Stripe, off-session, on the mirror', async () => {
    const m = merchant(platform);
    const customerId = await m.customer();
    const method = await paymentMethod();
    const instrument = await m.ok('payment-instruments/attach', { customer_id: customerId, provider: 'stripe', payment_method_id: method.id });
    const invoice = await m.openInvoice(customerId);
    const paid = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: instrument.id });
    expect(paid.payment).toMatchObject({ status: 'SUCCEEDED', provider: 'stripe' });
    const intent = await stripe.paymentIntents.retrieve(paid.payment.provider_reference);
    const [mirror] = await mirrorsOf(customerId);
    expect(intent).toMatchObject({ status: 'succeeded', payment_method: method.id, customer: mirror!.stripeCustomerId, amount: invoice.amount_due });
  });

  it('lets an antifraud CARD_ID list hold a Stripe card’s fingerprint', async () => {
    const customer = await newCustomer();
    const { body: instrument } = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: (await paymentMethod()).id });
    const list = await platform.call('/v2/antifraud-lists/create', { name: 'Stolen cards', field: 'CARD_ID', action: 'BLOCK' });
    const item = await platform.call('/v2/antifraud-lists/create-item', { list_id: list.body.id, field_value: instrument.card.fingerprint });
    expect(item.status).toBe(200);
    expect(item.body.field_value).toBe(instrument.card.fingerprint);
  });

  describe('refusals, nothing saved', () => {
    async function nothingSavedFor(customerId: string) {
      expect(await platform.db.paymentInstrument.count({ where: { customerId } })).toBe(0);
    }

    it('refuses a SetupIntent that has not succeeded with 422 SETUP_INTENT_NOT_SUCCEEDED and its status', async () => {
      const customer = await newCustomer();
      const authenticating = await setupIntent('4000002760003184');
      const untouched = await stripe.setupIntents.create({});
      for (const intent of [authenticating, untouched]) {
        expect(intent.status).not.toBe('succeeded');
        const res = await attach({ customer_id: customer.id, provider: 'stripe', setup_intent_id: intent.id });
        expect(res).toMatchObject({ status: 422, body: { code: 'SETUP_INTENT_NOT_SUCCEEDED', context: { setup_intent_id: intent.id, status: intent.status } } });
      }
      await nothingSavedFor(customer.id);
    });

    it('refuses a PaymentMethod attached to another Stripe customer with 422 PAYMENT_METHOD_OF_ANOTHER_CUSTOMER', async () => {
      const [owner, other] = [await newCustomer(), await newCustomer()];
      const method = await paymentMethod();
      expect((await attach({ customer_id: owner.id, provider: 'stripe', payment_method_id: method.id })).status).toBe(200);
      const res = await attach({ customer_id: other.id, provider: 'stripe', payment_method_id: method.id });
      expect(res).toMatchObject({ status: 422, body: { code: 'PAYMENT_METHOD_OF_ANOTHER_CUSTOMER', context: { payment_method_id: method.id } } });

      // One the merchant attached to a customer of their own at Stripe, none of ours.
      const theirs = await stripe.customers.create({ email: 'elsewhere@example.com' });
      const attachedThere = await paymentMethod();
      await stripe.paymentMethods.attach(attachedThere.id, { customer: theirs.id });
      expect((await attach({ customer_id: other.id, provider: 'stripe', payment_method_id: attachedThere.id })).body.code).toBe('PAYMENT_METHOD_OF_ANOTHER_CUSTOMER');
      await nothingSavedFor(other.id);
      expect((await stripe.paymentMethods.retrieve(method.id)).customer).toBe((await mirrorsOf(owner.id))[0]!.stripeCustomerId);
    });

    it('refuses an expired card with 422 CARD_EXPIRED before anything is written at Stripe', async () => {
      const customer = await newCustomer();
      const lastYear = new Date().getUTCFullYear() - 1;
      const method = await paymentMethod('4242424242424242', { exp_month: 12, exp_year: lastYear });
      const res = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: method.id });
      expect(res).toMatchObject({ status: 422, body: { code: 'CARD_EXPIRED', context: { exp_month: 12, exp_year: lastYear } } });
      expect((await stripe.paymentMethods.retrieve(method.id)).customer).toBeNull();
      expect(await mirrorsOf(customer.id)).toEqual([]);
      await nothingSavedFor(customer.id);
    });

    it('refuses an id Stripe does not know, a card Stripe declines, and a customer the key cannot see', async () => {
      const customer = await newCustomer();
      const unknown = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: 'pm_NoSuchCard0000' });
      expect(unknown).toMatchObject({ status: 422, body: { code: 'PROVIDER_REFERENCE_NOT_FOUND', context: { provider: 'stripe', field: 'payment_method_id', id: 'pm_NoSuchCard0000' } } });
      const noIntent = await attach({ customer_id: customer.id, provider: 'stripe', setup_intent_id: 'seti_NoSuchIntent00' });
      expect(noIntent.body).toMatchObject({ code: 'PROVIDER_REFERENCE_NOT_FOUND', context: { field: 'setup_intent_id' } });

      // localstripe, as Stripe, checks the card with its issuer when attaching it.
      const declined = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: (await paymentMethod('4000000000000002')).id });
      expect(declined).toMatchObject({ status: 422, body: { code: 'CARD_DECLINED', context: { provider: 'stripe', decline_code: 'card_declined' } } });

      const elsewhere = await platform.call('/v2/api-keys/create', { name: 'channel three', channel_ids: [platform.channelIds[2]], permissions: ['payment-instruments:attach'] });
      const hidden = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: (await paymentMethod()).id }, { secret: elsewhere.body.secret });
      expect(hidden).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
      await nothingSavedFor(customer.id);
    });

    it('refuses a PaymentMethod that is no card with 422 PAYMENT_METHOD_NOT_CARD', async () => {
      const customer = await newCustomer();
      const debit = await stripe.paymentMethods.create({ type: 'sepa_debit', sepa_debit: { iban: 'DE89370400440532013000' } });
      const res = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: debit.id });
      expect(res).toMatchObject({ status: 422, body: { code: 'PAYMENT_METHOD_NOT_CARD', context: { payment_method_id: debit.id, type: 'sepa_debit' } } });
      expect((await stripe.paymentMethods.retrieve(debit.id)).customer).toBeNull();
      await nothingSavedFor(customer.id);
    });

    it('refuses with 422 PROVIDER_CREDENTIALS_REJECTED when Stripe no longer takes the connected key', async () => {
      // A key Stripe accepted once and has revoked since: localstripe answers 401 to a restricted key, as Stripe to a revoked one.
      const account = await createAccount(platform.db, 'Revoked key');
      await createChannel(platform.db, account.id, 'web');
      const { secret } = await createOperatorApiKey(platform.db, { accountId: account.id, name: 'root' });
      const revoked = 'rk_test_revokedsince0001';
      const now = new Date();
      await platform.db.stripeConnection.create({
        data: {
          accountId: account.id,
          sealedSecretKey: new Uint8Array(sealSecret(secretsKey(), stripeSecretPurpose(account.id, 'secret-key'), revoked)),
          secretKeyLast4: revoked.slice(-4),
          sealedWebhookSecret: new Uint8Array(sealSecret(secretsKey(), stripeSecretPurpose(account.id, 'webhook-secret'), 'whsec_revokedsince0001')),
          webhookSecretLast4: '0001',
          apiBase: emulator.url,
          livemode: false,
          connectedBy: 'operator',
          connectedAt: now,
          updatedAt: now,
        },
      });
      const customer = await newCustomer({}, secret);
      const res = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: (await paymentMethod()).id }, { secret });
      expect(res).toMatchObject({ status: 422, body: { code: 'PROVIDER_CREDENTIALS_REJECTED', context: { provider: 'stripe', reason: 'rejected' } } });
      expect(JSON.stringify(res.body)).not.toContain('revokedsince');
      await nothingSavedFor(customer.id);
    });

    it('asks for exactly one of payment_method_id and setup_intent_id, each with its prefix, and the permission payment-instruments:attach', async () => {
      const customer = await newCustomer();
      const neither = await attach({ customer_id: customer.id, provider: 'stripe' });
      expect(neither).toMatchObject({ status: 400, body: { context: { constraints: { payment_method_id: { type: 'REQUIRED' } } } } });
      const both = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: 'pm_a1', setup_intent_id: 'seti_b2' });
      expect(both.body.context.constraints.payment_method_id.type).toBe('INVALID');
      const wrongPrefix = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: 'seti_b2' });
      expect(wrongPrefix.body.context.constraints.payment_method_id.type).toBe('FORMAT');
      const otherProvider = await attach({ customer_id: customer.id, provider: 'sandbox-alpha', payment_method_id: 'pm_a1' });
      expect(otherProvider.status).toBe(400);

      const tokenizer = await platform.call('/v2/api-keys/create', { name: 'tokenizer', permissions: ['payment-instruments:tokenize'] });
      const denied = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: 'pm_a1' }, { secret: tokenizer.body.secret });
      expect(denied).toMatchObject({ status: 403, body: { context: { required_permission: 'payment-instruments:attach' } } });
    });
  });
});

describe('payment-instruments/tokenize and the provider fields', () => {
  it('refuses card numbers in an account connected to Stripe with 422 TOKENIZE_NOT_ALLOWED, saving nothing', async () => {
    const customer = await newCustomer();
    const res = await platform.call('/v2/payment-instruments/tokenize', { customer_id: customer.id, card: { number: '4242424242424242', exp_month: 8, exp_year: nextYear } });
    expect(res).toMatchObject({ status: 422, body: { code: 'TOKENIZE_NOT_ALLOWED', context: { provider: 'stripe' } } });
    expect(JSON.stringify(res.body)).not.toContain('4242424242');
    expect(await platform.db.paymentInstrument.count({ where: { customerId: customer.id } })).toBe(0);
  });

  it('leaves a sandbox account as it was: attach refused with 422 PROVIDER_NOT_CONNECTED, tokenize saving the card with no provider fields', async () => {
    const customer = await newCustomer({}, sandbox.secret);
    const refused = await attach({ customer_id: customer.id, provider: 'stripe', payment_method_id: (await paymentMethod()).id }, { secret: sandbox.secret });
    expect(refused).toMatchObject({ status: 422, body: { code: 'PROVIDER_NOT_CONNECTED', context: { provider: 'stripe' } } });
    expect(await platform.db.paymentInstrument.count({ where: { customerId: customer.id } })).toBe(0);

    const res = await platform.call('/v2/payment-instruments/tokenize', { customer_id: customer.id, card: { number: '4242424242424242', exp_month: 8, exp_year: nextYear } }, { secret: sandbox.secret });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^pi_/),
      customer_id: customer.id,
      channel_id: sandbox.channelId,
      type: 'CARD',
      card: { brand: 'VISA', last4: '4242', exp_month: 8, exp_year: nextYear, fingerprint: expect.any(String) },
      status: 'ACTIVE',
      created_at: expect.any(String),
      updated_at: res.body.created_at,
    });
    const listed = await platform.call('/v2/payment-instruments/list', { customer_id: customer.id }, { secret: sandbox.secret });
    expect(listed.body.items).toEqual([res.body]);
    const stored = await platform.db.paymentInstrument.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored).toMatchObject({ sandboxScenario: 'APPROVE', provider: null, providerReference: null, providerCustomerReference: null });
    expect(await mirrorsOf(customer.id)).toEqual([]);
  });
});
