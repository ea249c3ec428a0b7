import { endOfExpiryMonth } from '../../domain/cards';
import { EVENT_NAMES, EVENT_TYPES } from '../../domain/event-catalogue';
import { merchant } from '../invoices-payments/fixtures';
import { usePlatform } from '../support/platform';
import { startReceiver, waitFor, type TestReceiver } from './receiver';

const DAY = 24 * 60 * 60 * 1000;
const GOOD = '4242424242424242';
const SOFT = '4000000000009995';
const ALL_TYPES = EVENT_NAMES.map((name) => EVENT_TYPES[name]);

const platform = usePlatform();
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

/**
 * The acceptance check: a real receiver on the kit gets each of the 27 event types,
 * each caused by a real operation of the platform (or by its workflows as time passes), and
 * every event the platform committed reaches it exactly once.
 */
it('a receiver on the kit gets all 27 event types from real operations, every committed event once', async () => {
  const m = merchant(platform);
  const endpoint = await m.ok('webhooks/create', { url: receiver.url, event_types: ALL_TYPES, description: 'everything' });
  receiver.setSecrets([endpoint.secret]);
  await m.ok('webhooks/patch', { id: endpoint.id, status: 'ACTIVE' });
  const cardFor = async (customerId: string, number: string) => m.card(customerId, number);

  // Customers and payment instruments.
  const customerId = await m.customer();
  await m.ok('customers/update', { id: customerId, first_name: 'Ada' });
  const revoked = await cardFor(customerId, GOOD);
  await m.ok('payment-instruments/revoke', { id: revoked });
  const now = new Date();
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const expiring = await m.ok('payment-instruments/tokenize', {
    customer_id: customerId,
    card: { number: GOOD, exp_month: next.getUTCMonth() + 1, exp_year: next.getUTCFullYear() },
  });

  // Routing.
  const config = await m.ok('routing-configs/create', { name: 'Webhook routes' });
  const version = await m.ok('routing-configs/create-version', {
    routing_config_id: config.id,
    route_tree: { rules: [], default_providers: ['sandbox-alpha', 'sandbox-beta'] },
  });
  await m.ok('routing-configs/publish-version', { id: version.id });

  // Invoices: create, update, delete a draft; finalize, pay, refund; void; a refused finalization.
  const line = { amount: 10_000, description: 'Consulting', quantity: 1 };
  const draft = await m.ok('invoices/create', { customer_id: customerId, currency: 'EUR', line_items: [line] });
  await m.ok('invoices/update', { id: draft.id, notes: 'Updated' });
  await m.ok('invoices/delete', { id: draft.id });
  const paid = await m.openInvoice(customerId);
  await m.ok('invoices/pay', { id: paid.id, payment_instrument_id: await cardFor(customerId, GOOD) });
  await m.ok('invoices/refund', { id: paid.id });
  const voided = await m.openInvoice(customerId);
  await m.ok('invoices/void', { id: voided.id });
  const noCard = await m.customer();
  const refused = await m.ok('invoices/create', { customer_id: noCard, currency: 'EUR', line_items: [line], collection_method: 'CHARGE_AUTOMATICALLY' });
  expect((await platform.call('/v2/invoices/finalize', { id: refused.id })).status).toBe(422);

  // Dunning: a soft-declining default card fails the charge and starts dunning; 7 days later UNPAID.
  const dunned = await m.customer();
  await m.setDefaultInstrument(dunned, await cardFor(dunned, SOFT));
  await m.openInvoice(dunned, { collection_method: 'CHARGE_AUTOMATICALLY' });

  // Subscriptions.
  const product = await m.ok('products/create', { name: 'Pro plan' });
  const monthly = await m.ok('product-prices/create', {
    product_id: product.id,
    currency: 'EUR',
    amount: 1_999,
    billing_type: 'RECURRING',
    billing_period_config: { value: 1, unit: 'MONTH' },
  });
  const payer = await m.customer();
  await m.setDefaultInstrument(payer, await cardFor(payer, GOOD));
  const subscribe = (customer: string, extra: Record<string, unknown> = {}) =>
    m.ok('subscriptions/create', { customer_id: customer, line_items: [{ product_price_id: monthly.id, quantity: 1 }], ...extra });
  const statusOf = (id: string, status: string) =>
    waitFor(`subscription ${id} ${status}`, async () => (await platform.db.subscription.findUniqueOrThrow({ where: { id } })).status === status);

  const renewing = await subscribe(payer);
  const scheduled = await subscribe(payer);
  const cancelled = await subscribe(payer);
  const expiringSubscription = await subscribe(payer, { ends_at: new Date(Date.now() + 2 * DAY).toISOString() });
  await subscribe(payer, { trial: { type: 'FREE', period_config: { value: 7, unit: 'DAY' } } });
  await subscribe(dunned);
  for (const s of [renewing, scheduled, cancelled, expiringSubscription]) await statusOf(s.id, 'ACTIVE');
  await m.ok('subscriptions/update', { id: renewing.id, description: 'Renamed plan' });
  await m.ok('subscriptions/cancel', { id: scheduled.id, mode: 'PERIOD_END' });
  await m.ok('subscriptions/cancel', { id: cancelled.id, mode: 'IMMEDIATELY' });

  // Time: the card's expiry month ends, dunning runs out, subscriptions renew and expire.
  const until = Math.max(endOfExpiryMonth(next.getUTCMonth() + 1, next.getUTCFullYear()).getTime(), Date.now() + 40 * DAY);
  await platform.env.sleep(until - (await platform.env.currentTimeMs()) + DAY);
  await waitFor('the card to expire', async () => (await m.ok('payment-instruments/get', { id: expiring.id })).status === 'EXPIRED');

  const received = () => new Set(receiver.processed.map((e) => e.event_type));
  await waitFor('all 27 event types', () => ALL_TYPES.every((type) => received().has(type)), 60_000);

  // Every event the platform committed for the account arrives, each once, verified by the kit.
  const committed = async () => (await platform.db.outboxEvent.findMany({ where: { accountId: platform.accountId }, select: { id: true } })).map((e) => e.id);
  await waitFor('every committed event', async () => receiver.processed.length === (await committed()).length, 60_000);
  expect(receiver.processed.map((e) => e.event_id).sort()).toEqual((await committed()).sort());
  expect(receiver.requests.every((r) => r.outcome === 'PROCESSED')).toBe(true);
  expect(ALL_TYPES.filter((type) => !received().has(type))).toEqual([]);

  // Payload shapes (docs/events.md). Delivery order is not guaranteed: find each by its resource.
  const first = (type: string, id?: string) =>
    receiver.processed.find((e) => e.event_type === type && (id === undefined || Object.values(e.data).some((v) => (v as { id?: string }).id === id)))!;
  expect(first('CUSTOMER_UPDATED', customerId).data).toMatchObject({ customer: { id: customerId, first_name: 'Ada' } });
  expect(first('PAYMENT_INSTRUMENT_REVOKED').data).toMatchObject({ payment_instrument: { id: revoked, status: 'REVOKED' } });
  expect(first('PAYMENT_INSTRUMENT_EXPIRED').data).toMatchObject({ payment_instrument: { id: expiring.id, status: 'EXPIRED' } });
  expect(first('ROUTING_CONFIG_VERSION_PUBLISHED').data).toMatchObject({ routing_config_version: { id: version.id, status: 'PUBLISHED' } });
  expect(first('INVOICE_DELETED', draft.id).data).toMatchObject({ invoice: { id: draft.id } });
  expect(first('INVOICE_FINALIZATION_FAILED').data).toMatchObject({ invoice: { id: refused.id, status: 'DRAFT' }, reasons: [{ code: 'PAYMENT_INSTRUMENT_REQUIRED' }] });
  expect(first('INVOICE_PAYMENT_REFUNDED', paid.id).data).toMatchObject({ invoice: { id: paid.id }, refund: { amount: 10_000 }, amount_refunded: 10_000 });
  expect(first('INVOICE_DUNNING_STARTED').data).toMatchObject({ invoice: { status: 'DUNNING', amount_due: 10_000 }, payment: { status: 'DECLINED' } });
  expect(first('SUBSCRIPTION_CREATED', renewing.id).data).toMatchObject({ subscription: { id: renewing.id } });
  expect(first('SUBSCRIPTION_CANCELLED', cancelled.id).data).toMatchObject({ subscription: { id: cancelled.id, status: 'CANCELLED' } });
  expect(first('SUBSCRIPTION_EXPIRED', expiringSubscription.id).data).toMatchObject({ subscription: { id: expiringSubscription.id, status: 'EXPIRED' } });
});
