import { randomBytes, randomUUID } from 'node:crypto';
import { createAccount, createChannel, createOperatorApiKey } from '../../scripts/operator/accounts';
import { setAntifraudEnabled } from '../../scripts/operator/antifraud';
import { usePlatform, type ApiResponse } from '../support/platform';

/**
 * Issue 16 item 3: a 422 code the API reference declares for an operation is one the server
 * really answers. For a sample of operations, each declared code is provoked over HTTP; the
 * sample's provocations must cover exactly the codes the document declares for it.
 */

const platform = usePlatform();
let document: any;

const UNKNOWN_CHANNEL = 'chn_01jdzzzzzzzzzzzzzzzzzzzzzz';
const call = (path: string, body: unknown, key?: string) => platform.call(path, body, key ? { headers: { 'Idempotency-Key': key } } : {});
const ok = async (path: string, body: unknown) => {
  const res = await call(path, body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
let keys = 0;
/** The same Idempotency-Key with another body: IDEMPOTENCY_KEY_REUSED whatever the first answer was. */
const reusedKey = async (path: string, first: unknown, second: unknown) => {
  const key = `error-codes-${++keys}-${randomUUID()}`;
  await call(path, first, key);
  return call(path, second, key);
};
const newCustomer = (extra: Record<string, unknown> = {}) => ok('/v2/customers/create', { type: 'INDIVIDUAL', email: `c${randomUUID().slice(0, 8)}@example.com`, ...extra });
const registration = { scheme: 'VAT', id: 'FR12345678901', country: 'FRA' };
const manual = (status: string) => ({ status, validated_at: '2026-03-01T10:00:00.000000Z', source: 'MANUAL' });

const PROVOKE: Record<string, Record<string, () => Promise<ApiResponse>>> = {
  '/v2/api-keys/create': {
    CHANNEL_NOT_FOUND: () => call('/v2/api-keys/create', { name: 'Shop', permissions: ['customers:get'], channel_ids: [UNKNOWN_CHANNEL] }),
    IDEMPOTENCY_KEY_REUSED: () =>
      reusedKey('/v2/api-keys/create', { name: 'Shop', permissions: ['customers:get'] }, { name: 'Shop 2', permissions: ['customers:get'] }),
  },
  '/v2/customers/create': {
    CHANNEL_NOT_FOUND: () => call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'a@example.com', channel_id: UNKNOWN_CHANNEL }),
    INVALID_DEFAULT_PAYMENT_INSTRUMENT: () =>
      call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'a@example.com', configuration: { default_payment_instrument_id: 'pi_01jdzzzzzzzzzzzzzzzzzzzzzz' } }),
    INVALID_TAX_REGISTRATION_VALIDATION_SOURCE: () =>
      call('/v2/customers/create', {
        type: 'INDIVIDUAL',
        email: 'a@example.com',
        tax: { taxability: 'TAXABLE', registrations: [{ ...registration, validation: { ...manual('VERIFIED'), source: 'VIES' } }] },
      }),
    IDEMPOTENCY_KEY_REUSED: () =>
      reusedKey('/v2/customers/create', { type: 'INDIVIDUAL', email: 'a@example.com' }, { type: 'INDIVIDUAL', email: 'b@example.com' }),
  },
  '/v2/customer-portal-sessions/create': {
    INCOMPATIBLE_STATUS: async () => {
      const customer = await newCustomer();
      await ok('/v2/customers/update', { id: customer.id, status: 'INACTIVE' });
      return call('/v2/customer-portal-sessions/create', { customer_id: customer.id });
    },
    IDEMPOTENCY_KEY_REUSED: async () => {
      const customer = await newCustomer();
      return reusedKey('/v2/customer-portal-sessions/create', { customer_id: customer.id }, { customer_id: customer.id, locale: 'de' });
    },
  },
  '/v2/customers/update': {
    INVALID_DEFAULT_PAYMENT_INSTRUMENT: async () =>
      call('/v2/customers/update', { id: (await newCustomer()).id, configuration: { default_payment_instrument_id: 'pi_01jdzzzzzzzzzzzzzzzzzzzzzz' } }),
    INVALID_TAX_REGISTRATION_VALIDATION_SOURCE: async () =>
      call('/v2/customers/update', {
        id: (await newCustomer()).id,
        tax: { taxability: 'TAXABLE', registrations: [{ ...registration, validation: { ...manual('VERIFIED'), source: 'VIES' } }] },
      }),
    INVALID_TAX_REGISTRATION_VALIDATION_UPDATE: async () => {
      const customer = await newCustomer({ tax: { taxability: 'TAXABLE', registrations: [{ ...registration, validation: manual('VERIFIED') }] } });
      return call('/v2/customers/update', { id: customer.id, tax: { taxability: 'TAXABLE', registrations: [{ ...registration, validation: manual('UNVERIFIED') }] } });
    },
    IDEMPOTENCY_KEY_REUSED: async () => {
      const { id } = await newCustomer();
      return reusedKey('/v2/customers/update', { id, first_name: 'Anna' }, { id, first_name: 'Anne' });
    },
  },
  '/v2/payment-instruments/tokenize': {
    CARD_EXPIRED: async () =>
      call('/v2/payment-instruments/tokenize', { customer_id: (await newCustomer()).id, card: { number: '4242424242424242', exp_month: 1, exp_year: 2020 } }),
    IDEMPOTENCY_KEY_REUSED: async () => {
      const { id } = await newCustomer();
      const card = { number: '4242424242424242', exp_month: 1, exp_year: 2020 };
      return reusedKey('/v2/payment-instruments/tokenize', { customer_id: id, card }, { customer_id: id, card: { ...card, exp_month: 2 } });
    },
    TOKENIZE_NOT_ALLOWED: async () => {
      // Another account, holding its cards at Stripe: tokenize asks only whether it is connected.
      const account = await createAccount(platform.db, 'Connected to Stripe');
      await createChannel(platform.db, account.id, 'web');
      const { secret } = await createOperatorApiKey(platform.db, { accountId: account.id, name: 'root' });
      const now = new Date();
      const sealed = new Uint8Array(randomBytes(40));
      await platform.db.stripeConnection.create({
        data: { accountId: account.id, sealedSecretKey: sealed, secretKeyLast4: 'abcd', sealedWebhookSecret: sealed, webhookSecretLast4: 'wxyz', livemode: false, connectedBy: 'operator', connectedAt: now, updatedAt: now },
      });
      const customer = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'connected@example.com' }, { secret });
      return platform.call('/v2/payment-instruments/tokenize', { customer_id: customer.body.id, card: { number: '4242424242424242', exp_month: 12, exp_year: now.getUTCFullYear() + 1 } }, { secret });
    },
  },
  '/v2/coupons/create': {
    COUPON_CODE_ALREADY_EXISTS: async () => {
      await ok('/v2/coupons/create', { code: 'TWICE', calculation_type: 'PERCENTAGE', calculation_value: 10 });
      return call('/v2/coupons/create', { code: 'TWICE', calculation_type: 'PERCENTAGE', calculation_value: 15 });
    },
    IDEMPOTENCY_KEY_REUSED: () =>
      reusedKey(
        '/v2/coupons/create',
        { code: 'KEYED-A', calculation_type: 'PERCENTAGE', calculation_value: 10 },
        { code: 'KEYED-B', calculation_type: 'PERCENTAGE', calculation_value: 10 },
      ),
  },
  '/v2/product-prices/create': {
    PRODUCT_NOT_FOUND: () => call('/v2/product-prices/create', { product_id: randomUUID(), currency: 'EUR', amount: 4900, billing_type: 'ONE_TIME' }),
    METER_NOT_FOUND: async () => {
      const product = await ok('/v2/products/create', { name: 'Metered' });
      const usage = { billing_type: 'USAGE', billing_period_config: { value: 1, unit: 'MONTH' }, usage_model: { model: 'PER_UNIT', unit_amount_decimal: '0.05' } };
      return call('/v2/product-prices/create', { product_id: product.id, currency: 'EUR', ...usage, meter_id: 'mtr_01jdzzzzzzzzzzzzzzzzzzzzzz' });
    },
    IDEMPOTENCY_KEY_REUSED: () =>
      reusedKey(
        '/v2/product-prices/create',
        { product_id: randomUUID(), currency: 'EUR', amount: 4900, billing_type: 'ONE_TIME' },
        { product_id: randomUUID(), currency: 'EUR', amount: 4900, billing_type: 'ONE_TIME' },
      ),
  },
  '/v2/routing-configs/create': {
    ROUTING_CONFIG_ALREADY_EXISTS: async () => {
      await ok('/v2/routing-configs/create', { name: 'First', channel_id: platform.channelIds[2] });
      return call('/v2/routing-configs/create', { name: 'Second', channel_id: platform.channelIds[2] });
    },
    CHANNEL_NOT_FOUND: () => call('/v2/routing-configs/create', { name: 'Nowhere', channel_id: UNKNOWN_CHANNEL }),
    IDEMPOTENCY_KEY_REUSED: () =>
      reusedKey('/v2/routing-configs/create', { name: 'A', channel_id: UNKNOWN_CHANNEL }, { name: 'B', channel_id: UNKNOWN_CHANNEL }),
  },
  '/v2/webhooks/create': {
    ENDPOINT_ALREADY_EXISTS: async () => {
      await ok('/v2/webhooks/create', { url: 'https://hooks.example.com/twice', event_types: ['INVOICE_PAID'] });
      return call('/v2/webhooks/create', { url: 'https://hooks.example.com/twice', event_types: ['INVOICE_VOIDED'] });
    },
    CHANNEL_NOT_FOUND: () => call('/v2/webhooks/create', { url: 'https://hooks.example.com/nowhere', channel_id: UNKNOWN_CHANNEL }),
    IDEMPOTENCY_KEY_REUSED: () =>
      reusedKey('/v2/webhooks/create', { url: 'https://hooks.example.com/a', channel_id: UNKNOWN_CHANNEL }, { url: 'https://hooks.example.com/b', channel_id: UNKNOWN_CHANNEL }),
  },
  '/v2/reports/create': {
    CHANNEL_NOT_FOUND: () => call('/v2/reports/create', { report_type: 'INVOICES', date_from: '2026-10-01', date_to: '2026-10-31', channel_id: UNKNOWN_CHANNEL }),
    IDEMPOTENCY_KEY_REUSED: () =>
      reusedKey(
        '/v2/reports/create',
        { report_type: 'INVOICES', date_from: '2026-10-01', date_to: '2026-10-31', channel_id: UNKNOWN_CHANNEL },
        { report_type: 'SUBSCRIPTIONS', date_from: '2026-10-01', date_to: '2026-10-31', channel_id: UNKNOWN_CHANNEL },
      ),
  },
  '/v2/invoices/create': {
    CUSTOMER_NOT_FOUND: () => call('/v2/invoices/create', { customer_id: 'cust_01jdzzzzzzzzzzzzzzzzzzzzzz', currency: 'EUR' }),
    PRODUCT_PRICE_NOT_FOUND: async () =>
      call('/v2/invoices/create', { customer_id: (await newCustomer()).id, currency: 'EUR', line_items: [{ product_price_id: randomUUID(), quantity: 1 }] }),
    USAGE_PRICE_NOT_INVOICEABLE: async () => {
      const product = await ok('/v2/products/create', { name: 'Metered' });
      const meter = await ok('/v2/meters/create', { name: 'Calls', event_name: 'call', aggregation: 'COUNT' });
      const usage = { billing_type: 'USAGE', billing_period_config: { value: 1, unit: 'MONTH' }, usage_model: { model: 'PER_UNIT', unit_amount_decimal: '0.05' } };
      const price = await ok('/v2/product-prices/create', { product_id: product.id, currency: 'EUR', ...usage, meter_id: meter.id });
      return call('/v2/invoices/create', { customer_id: (await newCustomer()).id, currency: 'EUR', line_items: [{ product_price_id: price.id, quantity: 1 }] });
    },
    CURRENCY_MISMATCH: async () => {
      const product = await ok('/v2/products/create', { name: 'Dollar plan' });
      const price = await ok('/v2/product-prices/create', { product_id: product.id, currency: 'USD', amount: 1000, billing_type: 'ONE_TIME' });
      return call('/v2/invoices/create', { customer_id: (await newCustomer()).id, currency: 'EUR', line_items: [{ product_price_id: price.id, quantity: 1 }] });
    },
    COUPON_NOT_FOUND: async () => call('/v2/invoices/create', { customer_id: (await newCustomer()).id, currency: 'EUR', discounts: [{ coupon_code: 'NO-SUCH-CODE' }] }),
    COUPON_CURRENCY_MISMATCH: async () => {
      const coupon = await ok('/v2/coupons/create', { code: 'USD-5', calculation_type: 'AMOUNT', calculation_value: 500, currency: 'USD' });
      return call('/v2/invoices/create', { customer_id: (await newCustomer()).id, currency: 'EUR', discounts: [{ coupon_id: coupon.id }] });
    },
    PAYMENT_INSTRUMENT_NOT_FOUND: async () =>
      call('/v2/invoices/create', { customer_id: (await newCustomer()).id, currency: 'EUR', payment_instrument_id: 'pi_01jdzzzzzzzzzzzzzzzzzzzzzz' }),
    IDEMPOTENCY_KEY_REUSED: () =>
      reusedKey('/v2/invoices/create', { customer_id: 'cust_01jdzzzzzzzzzzzzzzzzzzzzzz', currency: 'EUR' }, { customer_id: 'cust_01jdzzzzzzzzzzzzzzzzzzzzzz', currency: 'USD' }),
  },
  '/v2/antifraud-lists/create-item': {
    ITEM_ALREADY_EXISTS: async () => {
      const list = await ok('/v2/antifraud-lists/create', { name: 'Blocked IPs', field: 'IP_ADDRESS' });
      await ok('/v2/antifraud-lists/create-item', { list_id: list.id, field_value: '203.0.113.7' });
      return call('/v2/antifraud-lists/create-item', { list_id: list.id, field_value: '203.0.113.7' });
    },
    INCOMPATIBLE_STATUS: async () => {
      const list = await ok('/v2/antifraud-lists/create', { name: 'Blocked e-mails', field: 'CUSTOMER_EMAIL' });
      await setAntifraudEnabled(platform.db, platform.accountId, false);
      try {
        return await call('/v2/antifraud-lists/create-item', { list_id: list.id, field_value: 'fraud@example.com' });
      } finally {
        await setAntifraudEnabled(platform.db, platform.accountId, true);
      }
    },
    IDEMPOTENCY_KEY_REUSED: async () => {
      const list = await ok('/v2/antifraud-lists/create', { name: 'Blocked holders', field: 'CARDHOLDER' });
      return reusedKey('/v2/antifraud-lists/create-item', { list_id: list.id, field_value: 'John Doe' }, { list_id: list.id, field_value: 'Jane Doe' });
    },
  },
};

beforeAll(async () => {
  document = await (await fetch(`${platform.baseUrl}/openapi.json`)).json();
});

const declared = (operation: string): string[] => document.paths[operation].post.responses['422']?.content['application/json'].schema.properties.code.enum ?? [];

describe.each(Object.keys(PROVOKE))('%s', (operation) => {
  it('is provoked here for exactly the codes the document declares', () => {
    expect(Object.keys(PROVOKE[operation]!).sort()).toEqual([...declared(operation)].sort());
  });

  it.each(Object.keys(PROVOKE[operation]!))('answers 422 %s', async (code) => {
    const res = await PROVOKE[operation]![code]!();
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: 422, code });
  });
});
