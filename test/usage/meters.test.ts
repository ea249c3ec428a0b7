import { newId, newUuid } from '../../domain/ids';
import { createAccount, createOperatorApiKey } from '../../scripts/operator/accounts';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

const MINUTE = 60_000;
const SKEW = 5 * MINUTE;
const EPOCH = '1970-01-01T00:00:00.000000Z';

async function ok(path: string, body: unknown, options?: Parameters<typeof platform.call>[2]) {
  const res = await platform.call(`/v2/${path}`, body, options);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function refused(path: string, body: unknown) {
  const res = await platform.call(`/v2/${path}`, body);
  return { status: res.status, ...res.body };
}

async function constraintsOf(path: string, body: unknown) {
  const res = await refused(path, body);
  expect(res).toMatchObject({ status: 400, code: 'VALIDATION' });
  return res.context.constraints;
}

const sumMeter = (overrides: Record<string, unknown> = {}) => ({
  name: 'Storage',
  event_name: 'storage.written',
  aggregation: 'SUM',
  property: 'bytes',
  ...overrides,
});

describe('meters/create and get', () => {
  it('creates version 1 in force for every timestamp, and answers it as created', async () => {
    const before = Date.now();
    const count = await ok('meters/create', { name: 'API calls', event_name: 'api.call', aggregation: 'COUNT' });
    expect(count).toEqual({
      id: expect.stringMatching(/^mtr_[0-9a-z]{26}$/),
      name: 'API calls',
      event_name: 'api.call',
      aggregation: 'COUNT',
      filters: [],
      group_by: [],
      status: 'ACTIVE',
      version: 1,
      versions: [{ version: 1, effective_from: EPOCH, filters: [], group_by: [] }],
      created_at: expect.stringMatching(/\.\d{6}Z$/),
      updated_at: count.created_at,
    });
    expect(Date.parse(count.created_at)).toBeGreaterThanOrEqual(before - 1);
    expect(await ok('meters/get', { id: count.id })).toEqual(count);

    const filters = [{ property: 'meta.tier', operator: 'NOT_IN', values: ['free', '0'] }];
    const sum = await ok('meters/create', sumMeter({ filters, group_by: ['region', 'meta.zone'], metadata: { team: 'infra', seats: 3 } }));
    expect(sum).toMatchObject({ aggregation: 'SUM', property: 'bytes', filters, group_by: ['region', 'meta.zone'], metadata: { team: 'infra', seats: 3 } });
    expect(sum.versions).toEqual([{ version: 1, effective_from: EPOCH, property: 'bytes', filters, group_by: ['region', 'meta.zone'] }]);
    expect(await ok('meters/get', { id: sum.id })).toEqual(sum);
  });

  it('lets several meters share an event name', async () => {
    const a = await ok('meters/create', sumMeter({ event_name: 'shared.event' }));
    const b = await ok('meters/create', sumMeter({ event_name: 'shared.event', aggregation: 'MAX' }));
    expect(a.id).not.toBe(b.id);
  });

  it('requires a property for every aggregation but COUNT, and refuses one for COUNT', async () => {
    for (const aggregation of ['SUM', 'MAX', 'UNIQUE_COUNT', 'LATEST']) {
      expect(await constraintsOf('meters/create', { name: 'm', event_name: 'e', aggregation })).toEqual({
        property: { type: 'REQUIRED', message: `A ${aggregation} meter reads a property.` },
      });
    }
    expect(await constraintsOf('meters/create', { name: 'm', event_name: 'e', aggregation: 'COUNT', property: 'bytes' })).toEqual({
      property: { type: 'INVALID', message: 'A COUNT meter reads no property.' },
    });
  });

  it('refuses malformed definitions with the field that is wrong', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ aggregation: 'AVERAGE' }, 'aggregation', 'ENUM'],
      [{ name: '   ' }, 'name', 'MIN'],
      [{ name: 'x'.repeat(201) }, 'name', 'MAX'],
      [{ event_name: '' }, 'event_name', 'FORMAT'],
      [{ event_name: 'has space' }, 'event_name', 'FORMAT'],
      [{ event_name: 'e'.repeat(101) }, 'event_name', 'FORMAT'],
      [{ property: 'a..b' }, 'property', 'FORMAT'],
      [{ property: 'a.b.c.d.e.f' }, 'property', 'FORMAT'],
      [{ property: `${'p'.repeat(65)}` }, 'property', 'FORMAT'],
      [{ filters: Array.from({ length: 11 }, () => ({ property: 'a', operator: 'IN', values: ['x'] })) }, 'filters', 'MAX'],
      [{ filters: [{ property: 'a', operator: 'EQ', values: ['x'] }] }, 'filters[0].operator', 'ENUM'],
      [{ filters: [{ property: 'a', operator: 'IN', values: [] }] }, 'filters[0].values', 'MIN'],
      [{ filters: [{ property: 'a', operator: 'IN', values: Array.from({ length: 101 }, (_, i) => String(i)) }] }, 'filters[0].values', 'MAX'],
      [{ filters: [{ property: 'a', operator: 'IN', values: ['x', 7] }] }, 'filters[0].values[1]', 'TYPE'],
      [{ filters: [{ property: 'a', operator: 'IN', values: ['ok'] }, { property: 'a b', operator: 'IN', values: ['x'] }] }, 'filters[1].property', 'FORMAT'],
      [{ group_by: ['region', 'zone', 'region'] }, 'group_by', 'INVALID'],
      [{ group_by: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'group_by', 'MAX'],
      [{ group_by: ['ok', '$bad'] }, 'group_by[1]', 'FORMAT'],
      [{ event_name: 'e', extra: 1 }, 'extra', 'UNKNOWN_FIELD'],
    ];
    for (const [overrides, field, type] of cases) {
      const constraints = await constraintsOf('meters/create', sumMeter(overrides));
      expect({ overrides, field, type: constraints[field]?.type }).toEqual({ overrides, field, type });
    }
  });

  it('answers 404 for an unknown meter, a meter of another account, and 400 for another kind of id', async () => {
    const mine = await ok('meters/create', sumMeter());
    expect(await refused('meters/get', { id: newId('meter') })).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const other = await createAccount(platform.db, 'Other');
    const key = await createOperatorApiKey(platform.db, { accountId: other.id, name: 'other' });
    expect((await platform.call('/v2/meters/get', { id: mine.id }, { secret: key.secret })).status).toBe(404);
    expect((await platform.call('/v2/meters/list', {}, { secret: key.secret })).body.items).toEqual([]);
    expect((await platform.call('/v2/meters/archive', { id: mine.id }, { secret: key.secret })).status).toBe(404);
    expect((await constraintsOf('meters/get', { id: 'cust_01jabc' })).id.type).toBe('FORMAT');
  });

  it('replays a create under its Idempotency-Key', async () => {
    const headers = { 'idempotency-key': 'meter-create-1' };
    const first = await ok('meters/create', sumMeter(), { headers });
    const again = await ok('meters/create', sumMeter(), { headers });
    expect(again).toEqual(first);
    const reused = await platform.call('/v2/meters/create', sumMeter({ name: 'Other' }), { headers });
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});

describe('meters/update', () => {
  it('renames and replaces metadata in place, without a new version', async () => {
    const meter = await ok('meters/create', sumMeter({ metadata: { a: 1 } }));
    const renamed = await ok('meters/update', { id: meter.id, name: 'Bytes written', metadata: { b: 'two' } });
    expect(renamed).toEqual({ ...meter, name: 'Bytes written', metadata: { b: 'two' }, updated_at: expect.any(String) });
    expect(Date.parse(renamed.updated_at)).toBeGreaterThanOrEqual(Date.parse(meter.updated_at));
    const cleared = await ok('meters/update', { id: meter.id, metadata: null });
    expect(cleared.metadata).toBeUndefined();
    expect(cleared.version).toBe(1);
  });

  it('makes a new version from now plus the future skew by default, keeping the fields left out', async () => {
    const filters = [{ property: 'tier', operator: 'IN', values: ['paid'] }];
    const meter = await ok('meters/create', sumMeter({ filters }));
    const before = Date.now();
    const updated = await ok('meters/update', { id: meter.id, group_by: ['region'] });
    const after = Date.now();
    expect(updated).toMatchObject({ version: 2, property: 'bytes', filters, group_by: ['region'] });
    expect(updated.versions[0]).toEqual(meter.versions[0]);
    expect(updated.versions[1]).toEqual({ version: 2, effective_from: expect.stringMatching(/\.\d{6}Z$/), property: 'bytes', filters, group_by: ['region'] });
    const from = Date.parse(updated.versions[1].effective_from);
    expect(from).toBeGreaterThanOrEqual(before + SKEW);
    expect(from).toBeLessThanOrEqual(after + SKEW);
    expect(await ok('meters/get', { id: meter.id })).toEqual(updated);
  });

  it('refuses a change that would reach back before now plus the skew, or before the newest version', async () => {
    const meter = await ok('meters/create', sumMeter());
    const tooEarly = new Date(Date.now() + SKEW - MINUTE).toISOString();
    const refusal = await refused('meters/update', { id: meter.id, property: 'kilobytes', effective_from: tooEarly });
    expect(refusal).toMatchObject({ status: 422, code: 'METER_CHANGE_TOO_EARLY', context: { field: 'effective_from', earliest: expect.stringMatching(/\.\d{6}Z$/) } });
    expect(Date.parse(refusal.context.earliest)).toBeGreaterThan(Date.parse(tooEarly));
    expect((await ok('meters/get', { id: meter.id })).version).toBe(1);

    const inADay = '2099-01-02T00:00:00.000000Z';
    const second = await ok('meters/update', { id: meter.id, property: 'kilobytes', effective_from: inADay });
    expect(second.versions[1]).toMatchObject({ version: 2, effective_from: inADay, property: 'kilobytes' });
    const beforeSecond = await refused('meters/update', { id: meter.id, property: 'megabytes', effective_from: '2099-01-01T00:00:00.000000Z' });
    expect(beforeSecond).toMatchObject({ status: 422, code: 'METER_CHANGE_TOO_EARLY', context: { field: 'effective_from', earliest: inADay } });
    // The default follows the newest version too, and one at the same instant supersedes it.
    const third = await ok('meters/update', { id: meter.id, property: 'megabytes' });
    expect(third.versions.map((v: { effective_from: string; property: string }) => [v.effective_from, v.property])).toEqual([
      [EPOCH, 'bytes'],
      [inADay, 'kilobytes'],
      [inADay, 'megabytes'],
    ]);
  });

  it('numbers concurrent changes one after the other', async () => {
    const meter = await ok('meters/create', sumMeter());
    const changes = await Promise.all(['a', 'b', 'c', 'd'].map((path) => platform.call('/v2/meters/update', { id: meter.id, group_by: [path] })));
    expect(changes.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    const final = await ok('meters/get', { id: meter.id });
    expect(final.version).toBe(5);
    expect(final.versions.map((v: { version: number }) => v.version)).toEqual([1, 2, 3, 4, 5]);
  });

  it('makes no version when the newest definition is sent again', async () => {
    const meter = await ok('meters/create', sumMeter({ group_by: ['region'] }));
    const same = await ok('meters/update', { id: meter.id, property: 'bytes', group_by: ['region'], filters: [] });
    expect(same).toEqual(meter);
  });

  it('keeps event_name and aggregation fixed, and checks the new definition against the stored aggregation', async () => {
    const meter = await ok('meters/create', { name: 'Calls', event_name: 'api.call', aggregation: 'COUNT' });
    expect((await constraintsOf('meters/update', { id: meter.id, event_name: 'api.other' })).event_name.type).toBe('UNKNOWN_FIELD');
    expect((await constraintsOf('meters/update', { id: meter.id, aggregation: 'SUM' })).aggregation.type).toBe('UNKNOWN_FIELD');
    expect(await constraintsOf('meters/update', { id: meter.id, property: 'bytes' })).toEqual({ property: { type: 'INVALID', message: 'A COUNT meter reads no property.' } });
    expect(await constraintsOf('meters/update', { id: meter.id, filters: [{ property: 'a', operator: 'IN', values: [] }] })).toMatchObject({
      'filters[0].values': { type: 'MIN' },
    });
    expect(await ok('meters/get', { id: meter.id })).toEqual(meter);
  });

  it('asks for something to change, and dates only a new definition', async () => {
    const meter = await ok('meters/create', sumMeter());
    expect(Object.values(await constraintsOf('meters/update', { id: meter.id }))).toEqual([{ type: 'REQUIRED', message: 'Give at least one of name, metadata, property, filters, group_by.' }]);
    const dated = await constraintsOf('meters/update', { id: meter.id, name: 'x', effective_from: '2099-01-01T00:00:00.000000Z' });
    expect(dated).toEqual({ effective_from: { type: 'INVALID', message: 'Only with `property`, `filters` or `group_by`: it dates a new version.' } });
    expect(await refused('meters/update', { id: newId('meter'), name: 'x' })).toMatchObject({ status: 404 });
  });
});

describe('meters/list', () => {
  it('pages newest first and filters by status and event name, with tokens bound to the filters', async () => {
    const event = `list.${Date.now()}`;
    const made = [];
    for (const name of ['one', 'two', 'three']) made.push(await ok('meters/create', sumMeter({ name, event_name: event })));
    const filters = { event_name: { operator: 'EQ', value: event } };
    const first = await ok('meters/list', { filters, pagination: { page_size: 2 } });
    expect(first.items.map((m: { name: string }) => m.name)).toEqual(['three', 'two']);
    expect(first.items[0]).toEqual(made[2]);
    const second = await ok('meters/list', { filters, pagination: { page_size: 2, next_page_token: first.pagination.next_page_token } });
    expect(second).toEqual({ items: [made[0]], pagination: { page_size: 2, next_page_token: '' } });
    const foreign = await constraintsOf('meters/list', { pagination: { page_size: 2, next_page_token: first.pagination.next_page_token } });
    expect(foreign['pagination.next_page_token'].type).toBe('FORMAT');

    await ok('meters/archive', { id: made[1].id });
    const archived = await ok('meters/list', { filters: { ...filters, status: { operator: 'EQ', value: 'ARCHIVED' } } });
    expect(archived.items.map((m: { id: string }) => m.id)).toEqual([made[1].id]);
    const active = await ok('meters/list', { filters: { event_name: { operator: 'IN', value: [event, 'nothing.else'] }, status: { operator: 'IN', value: ['ACTIVE'] } } });
    expect(active.items.map((m: { id: string }) => m.id)).toEqual([made[2].id, made[0].id]);
    expect((await constraintsOf('meters/list', { filters: { status: { operator: 'EQ', value: 'PAUSED' } } }))['filters.status.value'].type).toBe('ENUM');
  });
});

describe('meters/archive', () => {
  /** A subscription in `status` with a line billing a USAGE price of the meter, written directly: usage prices are another operation's. */
  async function subscriptionBilling(meterId: string, status: string): Promise<{ subscriptionId: string; priceId: string }> {
    const customer = await ok('customers/create', { type: 'INDIVIDUAL', email: 'usage@example.com' });
    const product = await ok('products/create', { name: 'Metered' });
    const priceId = newUuid();
    const subscriptionId = newId('subscription');
    const now = new Date();
    await platform.db.$executeRawUnsafe(
      `INSERT INTO product_prices (id, account_id, product_id, currency, amount, billing_type, meter_id, created_at, updated_at)
       VALUES ($1, $2, $3, 'EUR', 0, 'USAGE', $4, $5, $5)`,
      priceId,
      platform.accountId,
      product.id,
      meterId,
      now,
    );
    await platform.db.$executeRawUnsafe(
      `INSERT INTO subscriptions (id, account_id, channel_id, customer_id, status, currency, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'EUR', $6, $6)`,
      subscriptionId,
      platform.accountId,
      customer.channel_id,
      customer.id,
      status,
      now,
    );
    await platform.db.$executeRawUnsafe(
      `INSERT INTO subscription_line_items (id, subscription_id, position, product_id, product_price_id, product_name, billing_type, currency, amount, quantity, period_start_at, created_at, updated_at)
       VALUES ($1, $2, 0, $3, $4, 'Metered', 'USAGE', 'EUR', 0, 1, $5, $5, $5)`,
      newId('subscriptionLineItem'),
      subscriptionId,
      product.id,
      priceId,
      now,
    );
    return { subscriptionId, priceId };
  }

  it('archives for good, idempotently, and keeps the definition from changing', async () => {
    const meter = await ok('meters/create', sumMeter());
    const archived = await ok('meters/archive', { id: meter.id });
    expect(archived).toEqual({ ...meter, status: 'ARCHIVED', archived_at: expect.stringMatching(/\.\d{6}Z$/), updated_at: archived.archived_at });
    expect(await ok('meters/archive', { id: meter.id })).toEqual(archived);
    expect(await ok('meters/get', { id: meter.id })).toEqual(archived);
    expect(await refused('meters/update', { id: meter.id, property: 'kilobytes' })).toMatchObject({
      status: 422,
      code: 'INCOMPATIBLE_STATUS',
      context: { status: 'ARCHIVED', allowed_statuses: ['ACTIVE'] },
    });
    expect((await ok('meters/update', { id: meter.id, name: 'Old storage' })).name).toBe('Old storage');
  });

  it('refuses while a subscription that is not over bills a usage price of the meter', async () => {
    const meter = await ok('meters/create', sumMeter());
    const live = await subscriptionBilling(meter.id, 'ACTIVE');
    await subscriptionBilling(meter.id, 'CANCELLED');
    expect(await refused('meters/archive', { id: meter.id })).toMatchObject({
      status: 422,
      code: 'METER_IN_USE',
      context: { subscription_ids: [live.subscriptionId], product_price_ids: [live.priceId] },
    });
    expect((await ok('meters/get', { id: meter.id })).status).toBe('ACTIVE');

    // Over, but its last usage not invoiced yet: the usage line's period is still open.
    await platform.db.$executeRawUnsafe(`UPDATE subscriptions SET status = 'EXPIRED' WHERE id = $1`, live.subscriptionId);
    await platform.db.$executeRawUnsafe(
      `UPDATE subscription_line_items SET started_at = period_start_at, period_end_at = period_start_at + interval '1 day' WHERE subscription_id = $1`,
      live.subscriptionId,
    );
    expect(await refused('meters/archive', { id: meter.id })).toMatchObject({ status: 422, code: 'METER_IN_USE', context: { subscription_ids: [live.subscriptionId] } });
    // The final usage invoice closes the line's period.
    await platform.db.$executeRawUnsafe(`UPDATE subscription_line_items SET period_start_at = period_end_at WHERE subscription_id = $1`, live.subscriptionId);
    expect((await ok('meters/archive', { id: meter.id })).status).toBe('ARCHIVED');
  });
});

describe('prices of an archived meter', () => {
  it('are refused on a subscription, as a price of a meter that is not there', async () => {
    const meter = await ok('meters/create', sumMeter());
    const product = await ok('products/create', { name: 'Metered' });
    const price = await ok('product-prices/create', {
      product_id: product.id,
      currency: 'EUR',
      billing_type: 'USAGE',
      billing_period_config: { value: 1, unit: 'MONTH' },
      meter_id: meter.id,
      usage_model: { model: 'PER_UNIT', unit_amount_decimal: '1' },
    });
    await ok('meters/archive', { id: meter.id });
    const customer = await ok('customers/create', { type: 'INDIVIDUAL', email: 'archived-meter@example.com' });
    expect(
      await refused('subscriptions/create', {
        customer_id: customer.id,
        collection_method: 'SEND_INVOICE',
        line_items: [{ product_price_id: price.id, quantity: 1 }],
      }),
    ).toMatchObject({ status: 422, code: 'METER_NOT_FOUND', context: { field: 'line_items[0].product_price_id', meter_id: meter.id, status: 'ARCHIVED' } });
    // In its place among the checks: the prices' refusals come before the collection's (no instrument to charge).
    expect(
      await refused('subscriptions/create', {
        customer_id: customer.id,
        collection_method: 'CHARGE_AUTOMATICALLY',
        line_items: [{ product_price_id: price.id, quantity: 1 }],
      }),
    ).toMatchObject({ status: 422, code: 'METER_NOT_FOUND' });
  });
});

describe('permissions', () => {
  it('needs meters:<action>, and reading needs no more than get and list', async () => {
    const meter = await ok('meters/create', sumMeter());
    const reader = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'reader', permissions: ['meters:get', 'meters:list'] });
    const as = (path: string, body: unknown) => platform.call(`/v2/meters/${path}`, body, { secret: reader.secret });
    expect((await as('get', { id: meter.id })).body).toEqual(meter);
    expect((await as('list', {})).status).toBe(200);
    for (const [action, body] of [
      ['create', sumMeter()],
      ['update', { id: meter.id, name: 'x' }],
      ['archive', { id: meter.id }],
    ] as const) {
      const res = await as(action, body);
      expect({ action, status: res.status, code: res.body.code, context: res.body.context }).toEqual({
        action,
        status: 403,
        code: 'PERMISSION_DENIED',
        context: { required_permission: `meters:${action}` },
      });
    }
  });
});
