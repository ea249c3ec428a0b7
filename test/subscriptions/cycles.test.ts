import type { Platform } from '../support/platform';
import { DAY, isoDay, MINUTE, useSubscriptionPlatform, type SubscriptionSteps } from './fixtures';

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

describe('billing cycles', () => {
  it('starts at once: PENDING, the SUBSCRIPTION_CREATE invoice is charged, ACTIVE', async () => {
    const { customerId, instrumentId } = await s.payer();
    const priceId = await s.price(1_999);
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 2 }] });
    expect(created).toMatchObject({ status: 'PENDING', currency: 'EUR', customer_id: customerId, payment_instrument_id: instrumentId });
    expect(created.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(created.line_items).toHaveLength(1);
    expect(created.line_items[0]).toMatchObject({ billing_type: 'RECURRING', amount: 1_999, quantity: 2, billing_period_config: { value: 1, unit: 'MONTH' } });
    expect(created.line_items[0].id).toMatch(/^slit_/);

    const active = await s.statusBecomes(created.id, 'ACTIVE');
    const [invoice] = await s.settled(created.id, 1);
    expect(invoice).toMatchObject({ status: 'PAID', billingReason: 'SUBSCRIPTION_CREATE', totalAmount: 3_998, subscriptionId: created.id });
    expect(active.latestInvoiceId).toBe(invoice!.id);
    expect(await s.eventTypes(created.id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_ACTIVATED']);
    const got = await s.get(created.id);
    expect(got).toMatchObject({ status: 'ACTIVE', latest_invoice_id: invoice!.id });
    expect(Date.parse(got.next_billing_at)).toBeGreaterThan(Date.parse(got.started_at));
  });

  it('bills 24 monthly cycles anchored on Jan 31: the last day of shorter months, Feb 29 of 2028, back to the 31st', async () => {
    const { customerId } = await s.payer();
    const priceId = await s.price(1_000);
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: priceId, quantity: 3 }],
      starts_at: '2027-01-31T10:00:00.000Z',
    });
    expect(created).toMatchObject({
      status: 'CREATED',
      start_scheduled_at: '2027-01-31T10:00:00.000000Z',
      anchor_at: '2027-01-31T10:00:00.000000Z',
      next_billing_at: '2027-01-31T10:00:00.000000Z',
    });
    expect(created.started_at).toBeUndefined();

    await s.sleep(Date.parse('2028-12-31T12:00:00Z') - (await s.now()));
    const invoices = await s.settled(created.id, 24);
    const days = [
      '2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31', '2027-06-30', '2027-07-31', '2027-08-31',
      '2027-09-30', '2027-10-31', '2027-11-30', '2027-12-31', '2028-01-31', '2028-02-29', '2028-03-31', '2028-04-30',
      '2028-05-31', '2028-06-30', '2028-07-31', '2028-08-31', '2028-09-30', '2028-10-31', '2028-11-30', '2028-12-31', '2029-01-31',
    ];
    invoices.forEach((invoice, i) => {
      expect({ day: isoDay(invoice.createdAt), reason: invoice.billingReason, total: invoice.totalAmount, status: invoice.status }).toEqual({
        day: days[i],
        reason: i === 0 ? 'SUBSCRIPTION_CREATE' : 'SUBSCRIPTION_CYCLE',
        total: 3_000,
        status: 'PAID',
      });
      expect(invoice.lineItems).toHaveLength(1);
      expect(invoice.lineItems[0]).toMatchObject({ amount: 1_000, quantity: 3, description: `Pro plan (${days[i]} – ${days[i + 1]})` });
    });

    const got = await s.get(created.id);
    expect(got).toMatchObject({ status: 'ACTIVE', next_billing_at: '2029-01-31T10:00:00.000000Z', latest_invoice_id: invoices[23]!.id, started_at: expect.stringMatching(/^2027-01-31T10:00/) });
    expect(got.line_items[0].period).toEqual({ start_at: '2028-12-31T10:00:00.000000Z', end_at: '2029-01-31T10:00:00.000000Z' });
    expect(await s.eventTypes(created.id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_ACTIVATED', ...Array(23).fill('SUBSCRIPTION_RENEWED')]);
    const renewed = (await s.events(created.id)).at(-1)!;
    expect((renewed.data as { subscription: { latest_invoice_id: string; status: string } }).subscription).toMatchObject({ status: 'ACTIVE', latest_invoice_id: invoices[23]!.id });
  }, 600_000);

  it('a fixed term bills ONE_TIME lines once, cuts and prorates the last period at ends_at, then EXPIRED', async () => {
    const { customerId } = await s.payer();
    const weekly = await s.price(7_000, { value: 1, unit: 'WEEK' }, 'Weekly box');
    const setup = await s.price(2_500, null, 'Setup fee');
    const startsAt = await s.soon();
    const endsAt = new Date(Date.parse(startsAt) + 10 * DAY).toISOString();
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: weekly, quantity: 1 }, { product_price_id: setup, quantity: 1 }],
      starts_at: startsAt,
      ends_at: endsAt,
    });
    expect(created.line_items.map((l: { billing_type: string }) => l.billing_type)).toEqual(['RECURRING', 'ONE_TIME']);
    expect(created.line_items[1].billing_period_config).toBeUndefined();

    await s.sleep(2 * MINUTE);
    await s.statusBecomes(created.id, 'ACTIVE');
    await s.sleep(8 * DAY);
    const [first, second] = await s.settled(created.id, 2);
    expect(first).toMatchObject({ billingReason: 'SUBSCRIPTION_CREATE', totalAmount: 9_500 });
    expect(first!.lineItems.map((l) => l.description)).toEqual([`Weekly box (${isoDay(startsAt)} – ${isoDay(new Date(Date.parse(startsAt) + 7 * DAY))})`, 'Setup fee']);
    expect(second).toMatchObject({ billingReason: 'SUBSCRIPTION_CYCLE', totalAmount: 3_000 });
    expect(second!.lineItems[0]!.description).toMatch(/^Weekly box × 1 \(.*, prorated\)$/);
    expect(await s.get(created.id)).toMatchObject({ status: 'ACTIVE', ends_at: endsAt.replace('Z', '000Z') });
    expect((await s.get(created.id)).next_billing_at).toBeUndefined();

    await s.sleep(3 * DAY);
    await s.statusBecomes(created.id, 'EXPIRED');
    await s.sleep(14 * DAY);
    expect(await s.invoices(created.id)).toHaveLength(2);
    expect(await s.eventTypes(created.id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_ACTIVATED', 'SUBSCRIPTION_RENEWED', 'SUBSCRIPTION_EXPIRED']);
    const [expired] = (await s.events(created.id)).slice(-1);
    expect((expired!.data as { subscription: { status: string } }).subscription.status).toBe('EXPIRED');
    expect(await s.refused('subscriptions/cancel', { id: created.id, mode: 'IMMEDIATELY' })).toMatchObject({ status: 422, code: 'INCOMPATIBLE_STATUS' });
  });

  it('refuses what a subscription cannot bill', async () => {
    const { customerId } = await s.payer();
    const monthly = await s.price(1_000);
    const yearly = await s.price(10_000, { value: 1, unit: 'YEAR' });
    const setup = await s.price(500, null);
    const product = await s.ok('products/create', { name: 'Dollar plan' });
    const usd = (await s.ok('product-prices/create', { product_id: product.id, currency: 'USD', amount: 100, billing_type: 'RECURRING', billing_period_config: { value: 1, unit: 'MONTH' } })).id;
    const create = (body: object) => s.refused('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: monthly, quantity: 1 }], ...body });

    expect(await create({ line_items: [{ product_price_id: monthly, quantity: 1 }, { product_price_id: yearly, quantity: 1 }] })).toMatchObject({ status: 422, code: 'BILLING_PERIOD_MISMATCH' });
    expect(await create({ line_items: [{ product_price_id: setup, quantity: 1 }] })).toMatchObject({ status: 422, code: 'RECURRING_LINE_ITEM_REQUIRED' });
    expect(await create({ line_items: [{ product_price_id: monthly, quantity: 1 }, { product_price_id: usd, quantity: 1 }] })).toMatchObject({ status: 422, code: 'CURRENCY_MISMATCH' });
    expect(await create({ line_items: [{ product_price_id: '018f0000-0000-7000-8000-000000000000', quantity: 1 }] })).toMatchObject({ status: 422, code: 'PRODUCT_PRICE_NOT_FOUND' });
    expect(await create({ customer_id: 'cust_nobody' })).toMatchObject({ status: 422, code: 'CUSTOMER_NOT_FOUND' });
    expect(await create({ discounts: [{ coupon_code: 'NOPE' }] })).toMatchObject({ status: 422, code: 'COUPON_NOT_FOUND' });
    expect(await create({ starts_at: '2020-01-01T00:00:00Z' })).toMatchObject({ status: 400, code: 'VALIDATION', context: { constraints: { starts_at: { type: 'MIN' } } } });
    expect(await create({ trial: { type: 'FREE', amount: 100 } })).toMatchObject({ status: 400, code: 'VALIDATION' });
    expect(await create({ line_items: [] })).toMatchObject({ status: 400, code: 'VALIDATION' });

    const stranger = await s.customer();
    expect(await create({ customer_id: stranger, collection_method: 'CHARGE_AUTOMATICALLY' })).toMatchObject({ status: 422, code: 'PAYMENT_INSTRUMENT_REQUIRED' });
    const theirs = await s.card(stranger);
    expect(await create({ payment_instrument_id: theirs })).toMatchObject({ status: 422, code: 'PAYMENT_INSTRUMENT_NOT_FOUND' });
    const revoked = await s.card(customerId);
    await s.ok('payment-instruments/revoke', { id: revoked });
    expect(await create({ payment_instrument_id: revoked })).toMatchObject({ status: 422, code: 'PAYMENT_INSTRUMENT_NOT_ACTIVE' });
    expect(await platform.db.subscription.count({ where: { customerId } })).toBe(0);
  });

  it('get and list answer from the read model, scoped to the key\'s channels', async () => {
    const { customerId } = await s.payer();
    const priceId = await s.price(1_000);
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1 }], starts_at: await s.soon() });
    const listed = await s.ok('subscriptions/list', { filters: { customer_id: { operator: 'EQ', value: customerId }, status: { operator: 'IN', value: ['CREATED', 'ACTIVE'] } } });
    expect(listed.items).toEqual([created]);
    const other = await s.ok('api-keys/create', { name: 'other channel', channel_ids: [platform.channelIds.find((c) => c !== created.channel_id)], permissions: ['subscriptions:get', 'subscriptions:list'] });
    expect(await s.refused('subscriptions/get', { id: created.id }, { secret: other.secret })).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect((await s.ok('subscriptions/list', {}, { secret: other.secret })).items).toEqual([]);
    expect(await s.refused('subscriptions/get', { id: 'subs_unknown' })).toMatchObject({ status: 404 });
  });
});
