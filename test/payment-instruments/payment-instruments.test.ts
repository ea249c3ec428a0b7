import { createHmac } from 'node:crypto';
import { cardFingerprintKey } from '../../api/secrets/card-fingerprint-key';
import { secretsKey } from '../../services/secrets/secrets-key';
import { paymentInstrumentExpiryWorkflowId } from '../../domain/workflow-ids';
import { createOperatorApiKey } from '../../scripts/operator/accounts';
import { usePlatform } from '../support/platform';

const platform = usePlatform();
let customer: { id: string; channel_id: string };

beforeAll(async () => {
  customer = await newCustomer(platform.channelIds[1]);
});

const now = new Date();
const thisYear = now.getUTCFullYear();
const nextYear = thisYear + 1;

async function newCustomer(channelId?: string) {
  const res = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'card@example.com', ...(channelId ? { channel_id: channelId } : {}) });
  expect(res.status).toBe(200);
  return res.body as { id: string; channel_id: string };
}

const card = (number: string, overrides: Record<string, unknown> = {}) => ({ number, exp_month: 8, exp_year: nextYear, ...overrides });

const tokenize = (body: Record<string, unknown>, options: { secret?: string; headers?: Record<string, string> } = {}) =>
  platform.call('/v2/payment-instruments/tokenize', body, options);

/** Every number these tests send: none may ever reach a table. */
const SENT_NUMBERS = new Set<string>();

async function tokenizeCard(number: string, overrides: Record<string, unknown> = {}, customerId = customer.id) {
  SENT_NUMBERS.add(number.replace(/ /g, ''));
  const res = await tokenize({ customer_id: customerId, card: card(number, overrides) });
  expect(res.status).toBe(200);
  return res.body;
}

describe('payment-instruments/tokenize', () => {
  it('keeps brand, last four, expiry, name and a keyed fingerprint, in the customer’s channel', async () => {
    const res = await tokenize({ customer_id: customer.id, card: card('4242 4242 4242 4242', { cardholder_name: ' Ada Lovelace ' }) });
    SENT_NUMBERS.add('4242424242424242');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^pi_/),
      customer_id: customer.id,
      channel_id: platform.channelIds[1],
      type: 'CARD',
      card: { brand: 'VISA', last4: '4242', exp_month: 8, exp_year: nextYear, cardholder_name: 'Ada Lovelace', fingerprint: expect.any(String) },
      status: 'ACTIVE',
      created_at: expect.stringMatching(/\.\d{6}Z$/),
      updated_at: res.body.created_at,
    });
    const key = await cardFingerprintKey(platform.db, platform.accountId, secretsKey());
    const expected = createHmac('sha256', key).update('4242424242424242').digest('base64url');
    expect(res.body.card.fingerprint).toBe(expected);

    const got = await platform.call('/v2/payment-instruments/get', { id: res.body.id });
    expect(got.body).toEqual(res.body);
    const stored = await platform.db.paymentInstrument.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored.sandboxScenario).toBe('APPROVE');

    const workflow = await platform.env.client.workflow.getHandle(paymentInstrumentExpiryWorkflowId(res.body.id)).describe();
    expect(workflow.status.name).toBe('RUNNING');
  });

  it.each([
    ['5555555555554444', 'MASTERCARD'],
    ['2223003122003222', 'MASTERCARD'],
    ['378282246310005', 'AMEX'],
    ['6011111111111117', 'DISCOVER'],
    ['3530111333300000', 'JCB'],
    ['36227206271667', 'DINERS'],
    ['9000000000000001', 'UNKNOWN'],
  ])('detects the brand of %s as %s', async (number, brand) => {
    const instrument = await tokenizeCard(number);
    expect(instrument.card.brand).toBe(brand);
    expect(instrument.card.last4).toBe(number.slice(-4));
  });

  it('gives the same card the same fingerprint and another card another one', async () => {
    const a = await tokenizeCard('4111111111111111');
    const b = await tokenizeCard('4111 1111 1111 1111', { exp_month: 1 });
    const c = await tokenizeCard('5555555555554444');
    expect(a.id).not.toBe(b.id);
    expect(a.card.fingerprint).toBe(b.card.fingerprint);
    expect(c.card.fingerprint).not.toBe(a.card.fingerprint);
  });

  it('records the sandbox scenario of a test card', async () => {
    const declined = await tokenizeCard('4000000000000002');
    expect((await platform.db.paymentInstrument.findUniqueOrThrow({ where: { id: declined.id } })).sandboxScenario).toBe('HARD_DECLINE');
  });

  it('refuses a number failing the Luhn check or malformed, without echoing it', async () => {
    for (const [number, type] of [
      ['4242424242424241', 'INVALID'],
      ['4242-4242-4242-4242', 'FORMAT'],
      ['42424242', 'FORMAT'],
      ['4242 4242 4242 424x', 'FORMAT'],
    ] as const) {
      const res = await tokenize({ customer_id: customer.id, card: card(number) });
      expect(res.status).toBe(400);
      expect(res.body.context.constraints['card.number'].type).toBe(type);
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(number);
      expect(text).not.toContain(number.replace(/\D/g, '').slice(0, 12));
    }
    const asNumber = await tokenize({ customer_id: customer.id, card: card(4242424242424242 as unknown as string) });
    expect(asNumber.status).toBe(400);
    expect(asNumber.body.context.constraints['card.number'].type).toBe('TYPE');
    expect(JSON.stringify(asNumber.body)).not.toContain('4242424242');
  });

  it('refuses an expired card with 422 CARD_EXPIRED and accepts one expiring this month', async () => {
    const lastMonth = new Date(Date.UTC(thisYear, now.getUTCMonth() - 1, 1));
    const res = await tokenize({
      customer_id: customer.id,
      card: card('4242424242424242', { exp_month: lastMonth.getUTCMonth() + 1, exp_year: lastMonth.getUTCFullYear() }),
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      code: 'CARD_EXPIRED',
      message: expect.any(String),
      context: { exp_month: lastMonth.getUTCMonth() + 1, exp_year: lastMonth.getUTCFullYear() },
    });
    const current = await tokenizeCard('4242424242424242', { exp_month: now.getUTCMonth() + 1, exp_year: thisYear });
    expect(current.status).toBe('ACTIVE');
  });

  it('validates expiry month and year', async () => {
    const constraint = async (overrides: Record<string, unknown>, path: string) =>
      (await tokenize({ customer_id: customer.id, card: card('4242424242424242', overrides) })).body.context.constraints[path];
    expect(await constraint({ exp_month: 13 }, 'card.exp_month')).toMatchObject({ type: 'MAX' });
    expect(await constraint({ exp_month: 0 }, 'card.exp_month')).toMatchObject({ type: 'MIN' });
    expect(await constraint({ exp_year: 26 }, 'card.exp_year')).toMatchObject({ type: 'MIN' });
    expect(await constraint({ exp_year: thisYear + 21 }, 'card.exp_year')).toMatchObject({ type: 'MAX' });
    expect(await constraint({ cvc: '123' }, 'card.cvc')).toMatchObject({ type: 'UNKNOWN_FIELD' });
  });

  it('answers 404 for an unknown customer or one outside the key’s channels', async () => {
    const unknown = await tokenize({ customer_id: 'cust_nobody', card: card('4242424242424242') });
    expect(unknown.status).toBe(404);
    const key = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'c0', channelIds: [platform.channelIds[0]] });
    const outside = await tokenize({ customer_id: customer.id, card: card('4242424242424242') }, { secret: key.secret });
    expect(outside.status).toBe(404);
    const named = await tokenize({ customer_id: customer.id, channel_id: platform.channelIds[2], card: card('4242424242424242') });
    expect(named.status).toBe(404);
  });

  it('replays under an Idempotency-Key, and refuses the key for another card', async () => {
    const headers = { 'Idempotency-Key': 'tokenize-1' };
    const body = { customer_id: customer.id, card: card('4000000000009995') };
    SENT_NUMBERS.add('4000000000009995');
    const first = await tokenize(body, { headers });
    const again = await tokenize(body, { headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await platform.db.paymentInstrument.count({ where: { last4: '9995' } })).toBe(1);
    const other = await tokenize({ ...body, card: card('4000000000000119') }, { headers });
    SENT_NUMBERS.add('4000000000000119');
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');

    const expired = { customer_id: customer.id, card: card('4000000000000101', { exp_year: 2020 }) };
    SENT_NUMBERS.add('4000000000000101');
    expect((await tokenize(expired, { headers: { 'Idempotency-Key': 'tokenize-expired' } })).status).toBe(422);
  });

  it('writes PaymentInstrumentCreated with the instrument, and nothing for a refused card', async () => {
    const before = await platform.db.outboxEvent.count();
    expect((await tokenize({ customer_id: customer.id, card: card('4242424242424241') })).status).toBe(400);
    expect((await tokenize({ customer_id: customer.id, card: card('4242424242424242', { exp_year: 2021 }) })).status).toBe(422);
    expect(await platform.db.outboxEvent.count()).toBe(before);

    const instrument = await tokenizeCard('378282246310005');
    const events = await platform.db.outboxEvent.findMany({ where: { eventType: 'PAYMENT_INSTRUMENT_CREATED' } });
    const mine = events.filter((e) => (e.data as { payment_instrument: { id: string } }).payment_instrument.id === instrument.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ channelId: customer.channel_id, data: { payment_instrument: instrument } });
  });
});

describe('payment-instruments/get, list', () => {
  it('gets an instrument only within the key’s channels', async () => {
    const instrument = await tokenizeCard('4242424242424242');
    const key = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'c0', channelIds: [platform.channelIds[0]] });
    expect((await platform.call('/v2/payment-instruments/get', { id: instrument.id }, { secret: key.secret })).status).toBe(404);
    expect((await platform.call('/v2/payment-instruments/get', { id: 'pi_unknown' })).status).toBe(404);
    const own = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'c1', channelIds: [platform.channelIds[1]] });
    expect((await platform.call('/v2/payment-instruments/get', { id: instrument.id }, { secret: own.secret })).status).toBe(200);
  });

  it('lists one customer’s instruments with status and brand filters and pages', async () => {
    const holder = await newCustomer();
    const visa = await tokenizeCard('4242424242424242', {}, holder.id);
    const master = await tokenizeCard('5555555555554444', {}, holder.id);
    const amex = await tokenizeCard('378282246310005', {}, holder.id);
    expect((await platform.call('/v2/payment-instruments/revoke', { id: master.id })).status).toBe(200);

    const list = async (body: Record<string, unknown>) => {
      const res = await platform.call('/v2/payment-instruments/list', { customer_id: holder.id, ...body });
      expect(res.status).toBe(200);
      return res.body;
    };
    expect((await list({})).items.map((i: { id: string }) => i.id)).toEqual([amex.id, master.id, visa.id]);
    expect((await list({ filters: { status: { operator: 'EQ', value: 'REVOKED' } } })).items.map((i: { id: string }) => i.id)).toEqual([master.id]);
    expect(
      (await list({ filters: { status: { operator: 'IN', value: ['ACTIVE', 'EXPIRED'] } } })).items.map((i: { id: string }) => i.id),
    ).toEqual([amex.id, visa.id]);
    expect((await list({ filters: { brand: { operator: 'EQ', value: 'VISA' } } })).items.map((i: { id: string }) => i.id)).toEqual([visa.id]);

    const first = await list({ pagination: { page_size: 2 } });
    expect(first.items).toHaveLength(2);
    const second = await list({ pagination: { page_size: 2, next_page_token: first.pagination.next_page_token } });
    expect(second.items.map((i: { id: string }) => i.id)).toEqual([visa.id]);
    expect(second.pagination.next_page_token).toBe('');
  });

  it('requires customer_id and answers 404 for a customer outside the key’s channels', async () => {
    const missing = await platform.call('/v2/payment-instruments/list', {});
    expect(missing.status).toBe(400);
    expect(missing.body.context.constraints.customer_id.type).toBe('REQUIRED');
    const key = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'c2', channelIds: [platform.channelIds[2]] });
    expect((await platform.call('/v2/payment-instruments/list', { customer_id: customer.id }, { secret: key.secret })).status).toBe(404);
    expect((await platform.call('/v2/payment-instruments/list', { customer_id: customer.id, filters: { brand: { operator: 'IN', value: ['VISA'] } } })).status).toBe(400);
  });
});

describe('payment-instruments/revoke', () => {
  it('revokes an ACTIVE instrument for good, with PaymentInstrumentRevoked', async () => {
    const instrument = await tokenizeCard('4242424242424242');
    const res = await platform.call('/v2/payment-instruments/revoke', { id: instrument.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...instrument, status: 'REVOKED', revoked_at: expect.any(String), updated_at: res.body.revoked_at });
    const revokedEvents = async () =>
      (await platform.db.outboxEvent.findMany({ where: { eventType: 'PAYMENT_INSTRUMENT_REVOKED' } })).filter(
        (e) => (e.data as { payment_instrument: { id: string } }).payment_instrument.id === instrument.id,
      );
    const events = await revokedEvents();
    expect(events).toHaveLength(1);
    expect(events[0]!.channelId).toBe(customer.channel_id);
    expect(events[0]!.data).toEqual({ payment_instrument: res.body });

    const again = await platform.call('/v2/payment-instruments/revoke', { id: instrument.id });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ code: 'INCOMPATIBLE_STATUS', context: { status: 'REVOKED' } });
    expect((await platform.call('/v2/payment-instruments/get', { id: instrument.id })).body.status).toBe('REVOKED');
    expect(await revokedEvents()).toHaveLength(1);
  });

  it('clears a revoked default as the customer’s default, with CustomerUpdated; another instrument leaves the customer alone', async () => {
    const owner = await newCustomer(platform.channelIds[1]);
    const kept = await tokenizeCard('4242424242424242', {}, owner.id);
    const chosen = await tokenizeCard('5555555555554444', {}, owner.id);
    const patched = await platform.call('/v2/customers/patch', { id: owner.id, configuration: { default_payment_instrument_id: chosen.id, default_billing_currency: 'EUR' } });
    expect(patched.status).toBe(200);
    const updatedEvents = async () =>
      (await platform.db.outboxEvent.findMany({ where: { eventType: 'CUSTOMER_UPDATED' }, orderBy: { id: 'asc' } })).filter(
        (e) => (e.data as { customer: { id: string } }).customer.id === owner.id,
      );
    const before = (await updatedEvents()).length;

    expect((await platform.call('/v2/payment-instruments/revoke', { id: kept.id })).status).toBe(200);
    expect(await updatedEvents()).toHaveLength(before);

    const revoked = await platform.call('/v2/payment-instruments/revoke', { id: chosen.id });
    expect(revoked.status).toBe(200);
    const customer = (await platform.call('/v2/customers/get', { id: owner.id })).body;
    expect(customer.configuration).toEqual({ default_billing_currency: 'EUR' });
    expect(customer.updated_at).toBe(revoked.body.revoked_at);
    const events = await updatedEvents();
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)).toMatchObject({ channelId: owner.channel_id, data: { customer } });
  });

  it('refuses an EXPIRED instrument and one outside the key’s channels', async () => {
    const instrument = await tokenizeCard('5555555555554444');
    await platform.db.paymentInstrument.update({ where: { id: instrument.id }, data: { status: 'EXPIRED', expiredAt: new Date() } });
    const res = await platform.call('/v2/payment-instruments/revoke', { id: instrument.id });
    expect(res.status).toBe(422);
    expect(res.body.context).toEqual({ status: 'EXPIRED' });

    const active = await tokenizeCard('4242424242424242');
    const key = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'c0', channelIds: [platform.channelIds[0]] });
    expect((await platform.call('/v2/payment-instruments/revoke', { id: active.id }, { secret: key.secret })).status).toBe(404);
    expect((await platform.call('/v2/payment-instruments/get', { id: active.id })).body.status).toBe('ACTIVE');
  });
});

describe('the card number', () => {
  it('is in no row of payment_instruments, idempotency_records or outbox_events', async () => {
    expect(SENT_NUMBERS.size).toBeGreaterThan(10);
    const tables = await Promise.all([
      platform.db.$queryRaw<unknown[]>`SELECT * FROM payment_instruments`,
      platform.db.$queryRaw<unknown[]>`SELECT * FROM idempotency_records`,
      platform.db.$queryRaw<unknown[]>`SELECT * FROM outbox_events`,
    ]);
    const [instruments, idempotency, outbox] = tables;
    expect(instruments!.length).toBeGreaterThan(10);
    expect(idempotency!.length).toBeGreaterThan(1);
    expect(outbox!.length).toBeGreaterThan(10);
    const dump = JSON.stringify(tables, (_key, value) => (typeof value === 'bigint' ? value.toString() : value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value));
    for (const number of SENT_NUMBERS) expect(dump).not.toContain(number);
    expect(dump).toContain('"last4":"4242"');
  });
});
