import { newId } from '../../domain/ids';
import { linePeriods } from '../../domain/usage/line-periods';
import { formatDecimal } from '../../domain/usage/decimal';
import { quantityOf } from '../../domain/usage/aggregate';
import { createOperatorApiKey } from '../../scripts/operator/accounts';
import { ALL_GROUPS, usageOver } from '../../services/usage/usage-over';
import { usePlatform } from '../support/platform';
import { ingest, insertMeter, testMeter, type TestEvent, type TestMeter } from './usage-fixtures';

/** usage/summary (docs/usage.md, "Reading usage"): buckets of hours, days or billing periods, from the roll-ups. */
const platform = usePlatform();

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (text: string) => Date.parse(text);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

let sequence = 0;

async function ok(path: string, body: unknown, secret?: string) {
  const res = await platform.call(`/v2/${path}`, body, secret ? { secret } : {});
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function customer(channelId?: string): Promise<string> {
  return (await ok('customers/create', { type: 'INDIVIDUAL', email: `usage${sequence++}@example.com`, ...(channelId ? { channel_id: channelId } : {}) })).id;
}

async function meter(aggregation: TestMeter['aggregation'], options: { property?: string; groupBy?: string[]; archivedAt?: number } = {}): Promise<TestMeter> {
  sequence++;
  const made = testMeter({
    accountId: platform.accountId,
    meterId: `mtr_summary${String(sequence).padStart(4, '0')}`,
    eventName: `summary_${sequence}`,
    aggregation,
    createdAt: 0,
    archivedAt: options.archivedAt ?? null,
    versions: [{ effectiveFrom: 0, property: options.property ?? null, filters: [], groupBy: options.groupBy ?? [] }],
  });
  await insertMeter(platform.db, made);
  return made;
}

async function send(m: TestMeter, customerId: string, events: Array<{ at: number; properties?: Record<string, unknown> }>): Promise<void> {
  sequence++;
  const made: TestEvent[] = events.map((e, index) => ({
    eventId: `summary-${sequence}-${index}`,
    eventName: m.eventName,
    customerId,
    timestamp: e.at,
    properties: e.properties ?? {},
    receivedAt: 1,
  }));
  await ingest(platform.db, platform.accountId, [m], made);
}

const summary = (body: Record<string, unknown>, secret?: string) => platform.call('/v2/usage/summary', body, secret ? { secret } : {});

describe('usage/summary, HOUR and DAY', () => {
  it('answers every hour of the window, empty ones too, with groups by the meter’s group-by paths', async () => {
    const customerId = await customer();
    const tokens = await meter('SUM', { property: 'tokens', groupBy: ['region'] });
    await send(tokens, customerId, [
      { at: at('2026-11-02T10:00:00.000Z'), properties: { tokens: '1.5', region: 'eu' } },
      { at: at('2026-11-02T10:59:59.999Z'), properties: { tokens: 2, region: 'us' } },
      { at: at('2026-11-02T12:30:00.000Z'), properties: { tokens: '0.000000000001', region: 'eu' } },
      { at: at('2026-11-02T12:31:00.000Z'), properties: { tokens: 4 } },
      { at: at('2026-11-02T13:00:00.000Z'), properties: { tokens: 100, region: 'eu' } },
    ]);
    const res = await summary({ customer_id: customerId, meter_id: tokens.meterId, window: 'HOUR', from: '2026-11-02T10:17:00.000000Z', to: '2026-11-02T12:00:00.000001Z', group_by: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      customer_id: customerId,
      window: 'HOUR',
      meters: [
        {
          meter_id: tokens.meterId,
          aggregation: 'SUM',
          buckets: [
            {
              start: '2026-11-02T10:00:00.000000Z',
              end: '2026-11-02T11:00:00.000000Z',
              quantity: '3.5',
              groups: [
                { group: { region: 'eu' }, quantity: '1.5' },
                { group: { region: 'us' }, quantity: '2' },
              ],
            },
            { start: '2026-11-02T11:00:00.000000Z', end: '2026-11-02T12:00:00.000000Z', quantity: '0', groups: [] },
            {
              start: '2026-11-02T12:00:00.000000Z',
              end: '2026-11-02T13:00:00.000000Z',
              quantity: '4.000000000001',
              groups: [
                { group: { region: 'eu' }, quantity: '0.000000000001' },
                { group: { region: null }, quantity: '4' },
              ],
            },
          ],
        },
      ],
    });
    const plain = await summary({ customer_id: customerId, meter_id: tokens.meterId, window: 'HOUR', from: '2026-11-02T12:00:00.000000Z', to: '2026-11-02T14:00:00.000000Z' });
    expect(plain.body.meters[0].buckets).toEqual([
      { start: '2026-11-02T12:00:00.000000Z', end: '2026-11-02T13:00:00.000000Z', quantity: '4.000000000001' },
      { start: '2026-11-02T13:00:00.000000Z', end: '2026-11-02T14:00:00.000000Z', quantity: '100' },
    ]);
  });

  it('counts a distinct value once per day and per group, whatever hours it was seen in, as usageOver does', async () => {
    const customerId = await customer();
    const users = await meter('UNIQUE_COUNT', { property: 'user', groupBy: ['plan'] });
    const calls = await meter('COUNT');
    const latest = await meter('LATEST', { property: 'seats' });
    const events = [
      { at: at('2026-11-03T01:00:00.000Z'), properties: { user: 'ann', plan: 'pro', seats: 3 } },
      { at: at('2026-11-03T23:59:59.999Z'), properties: { user: 'ann', plan: 'free', seats: 5 } },
      { at: at('2026-11-03T12:00:00.000Z'), properties: { user: 'bob', plan: 'pro', seats: 9 } },
      { at: at('2026-11-04T00:00:00.000Z'), properties: { user: 'bob', plan: 'pro', seats: 1 } },
    ];
    await send(users, customerId, events);
    await send(calls, customerId, events);
    await send(latest, customerId, events);
    const window = { customer_id: customerId, window: 'DAY', from: '2026-11-03T00:00:00.000000Z', to: '2026-11-05T00:00:00.000000Z' };
    const grouped = await summary({ ...window, meter_id: users.meterId, group_by: true });
    expect(grouped.body.meters[0].buckets).toEqual([
      {
        start: '2026-11-03T00:00:00.000000Z',
        end: '2026-11-04T00:00:00.000000Z',
        quantity: '2',
        groups: [
          { group: { plan: 'free' }, quantity: '1' },
          { group: { plan: 'pro' }, quantity: '2' },
        ],
      },
      { start: '2026-11-04T00:00:00.000000Z', end: '2026-11-05T00:00:00.000000Z', quantity: '1', groups: [{ group: { plan: 'pro' }, quantity: '1' }] },
    ]);
    for (const m of [users, calls, latest]) {
      const answered = (await summary({ ...window, meter_id: m.meterId })).body.meters[0].buckets.map((b: { quantity: string }) => b.quantity);
      const expected = [];
      for (const day of [at('2026-11-03T00:00:00Z'), at('2026-11-04T00:00:00Z')]) {
        const usage = await usageOver(platform.db, { accountId: platform.accountId, meter: m, customerId, from: day, to: day + DAY, groupBy: false });
        expected.push(formatDecimal(quantityOf(m.aggregation, usage.get(ALL_GROUPS)!)));
      }
      expect({ meter: m.aggregation, answered }).toEqual({ meter: m.aggregation, answered: expected });
    }
    expect((await summary({ ...window, meter_id: latest.meterId })).body.meters[0].buckets.map((b: { quantity: string }) => b.quantity)).toEqual(['5', '1']);
  });

  it('defaults to every ACTIVE meter of the account and the last 24 hours up to the end of the current hour', async () => {
    const customerId = await customer();
    const now = Date.now();
    const a = await meter('COUNT');
    await meter('COUNT', { archivedAt: now - DAY });
    await send(a, customerId, [{ at: now - 2 * HOUR }, { at: now - 25 * HOUR }]);
    const res = await summary({ customer_id: customerId, window: 'HOUR' });
    expect(res.status).toBe(200);
    const active = await platform.db.meter.findMany({ where: { accountId: platform.accountId, status: 'ACTIVE' }, orderBy: { id: 'asc' }, select: { id: true } });
    expect(res.body.meters.map((m: { meter_id: string }) => m.meter_id)).toEqual(active.map((m) => m.id));
    const mine = res.body.meters.find((m: { meter_id: string }) => m.meter_id === a.meterId);
    const end = Math.floor(now / HOUR) * HOUR + HOUR;
    expect(mine.buckets).toHaveLength(24);
    expect(mine.buckets[23].end).toBe(iso(end));
    expect(mine.buckets[0].start).toBe(iso(end - DAY));
    expect(mine.buckets.reduce((sum: number, b: { quantity: string }) => sum + Number(b.quantity), 0)).toBe(1);
  });

  it('refuses more than 744 buckets per meter, an empty or inverted window, an unknown meter, and a subscription where it does not belong', async () => {
    const customerId = await customer();
    const m = await meter('COUNT');
    const month = await summary({ customer_id: customerId, meter_id: m.meterId, window: 'HOUR', from: '2026-10-01T00:00:00.000000Z', to: '2026-11-01T00:00:00.000000Z' });
    expect(month.status).toBe(200);
    expect(month.body.meters[0].buckets).toHaveLength(744);
    const more = await summary({ customer_id: customerId, meter_id: m.meterId, window: 'HOUR', from: '2026-10-01T00:00:00.000000Z', to: '2026-11-01T00:00:00.000001Z' });
    expect(more.status).toBe(422);
    expect(more.body).toMatchObject({ code: 'USAGE_WINDOW_TOO_LARGE', context: { window: 'HOUR', buckets: 745, max_buckets: 744 } });
    const inverted = await summary({ customer_id: customerId, window: 'DAY', from: '2026-10-02T00:00:00.000000Z', to: '2026-10-02T00:00:00.000000Z' });
    expect(inverted.status).toBe(400);
    expect(inverted.body.context.constraints.to).toMatchObject({ type: 'INVALID' });
    const unknown = await summary({ customer_id: customerId, meter_id: 'mtr_unknown', window: 'DAY' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ code: 'METER_NOT_FOUND', context: { meter_id: 'mtr_unknown' } });
    const period = await summary({ customer_id: customerId, window: 'PERIOD' });
    expect(period.body.context.constraints.subscription_id).toMatchObject({ type: 'REQUIRED' });
    const hourly = await summary({ customer_id: customerId, window: 'HOUR', subscription_id: 'subs_x' });
    expect(hourly.body.context.constraints.subscription_id).toMatchObject({ type: 'INVALID' });
  });

  it('answers a customer outside the key’s channels as absent, as customers/get does', async () => {
    const customerId = await customer(platform.channelIds[1]);
    const key = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'channel one', channelIds: [platform.channelIds[0]] });
    expect((await summary({ customer_id: customerId, window: 'DAY' }, key.secret)).status).toBe(404);
    expect((await platform.call('/v2/customers/get', { id: customerId }, { secret: key.secret })).status).toBe(404);
    expect((await summary({ customer_id: customerId, window: 'DAY' })).status).toBe(200);
    const reader = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'no usage', permissions: ['customers:get'] });
    expect((await summary({ customer_id: customerId, window: 'DAY' }, reader.secret)).body).toMatchObject({ code: 'PERMISSION_DENIED', context: { required_permission: 'usage:summary' } });
  });
});

describe('usage/summary, PERIOD', () => {
  /** A subscription whose USAGE line of `m` has billed two daily periods from `start` and is in its third, written as the subscription workflow leaves it. */
  async function subscribed(customerId: string, m: TestMeter, start: number): Promise<string> {
    const product = await ok('products/create', { name: 'API' });
    const price = await ok('product-prices/create', {
      product_id: product.id,
      currency: 'EUR',
      billing_type: 'USAGE',
      billing_period_config: { value: 1, unit: 'DAY' },
      meter_id: m.meterId,
      usage_model: { model: 'PER_UNIT', unit_amount_decimal: '0.1' },
    });
    const id = newId('subscription');
    const now = new Date(start + 2 * DAY);
    await platform.db.subscription.create({
      data: {
        id,
        accountId: platform.accountId,
        channelId: platform.channelIds[0],
        customerId,
        status: 'ACTIVE',
        currency: 'EUR',
        startedAt: new Date(start),
        anchorAt: new Date(start),
        nextBillingAt: new Date(start + 3 * DAY),
        cycleCount: 3,
        createdAt: new Date(start),
        updatedAt: now,
        lineItems: {
          create: [
            {
              id: newId('subscriptionLineItem'),
              position: 0,
              productId: product.id,
              productPriceId: price.id,
              productName: 'API',
              billingType: 'USAGE',
              currency: 'EUR',
              amount: 0,
              quantity: 1,
              startedAt: new Date(start),
              periodStartAt: now,
              periodEndAt: new Date(start + 3 * DAY),
              billingPeriodValue: 1,
              billingPeriodUnit: 'DAY',
              createdAt: new Date(start),
              updatedAt: now,
            },
          ],
        },
      },
    });
    return id;
  }

  it('answers each billing period of the usage line from the first to the current one, exactly at its boundaries', async () => {
    const customerId = await customer();
    const calls = await meter('COUNT', { groupBy: ['region'] });
    const start = at('2026-11-10T09:30:15.250Z');
    const subscriptionId = await subscribed(customerId, calls, start);
    await send(calls, customerId, [
      { at: start - 1 },
      { at: start, properties: { region: 'eu' } },
      { at: start + DAY - 1, properties: { region: 'eu' } },
      { at: start + DAY, properties: { region: 'us' } },
      { at: start + 2 * DAY + 1 },
      { at: start + 3 * DAY },
    ]);
    const res = await summary({ customer_id: customerId, meter_id: calls.meterId, window: 'PERIOD', subscription_id: subscriptionId, group_by: true });
    expect(res.status).toBe(200);
    expect(res.body.meters[0].buckets).toEqual([
      { start: iso(start), end: iso(start + DAY), quantity: '2', groups: [{ group: { region: 'eu' }, quantity: '2' }] },
      { start: iso(start + DAY), end: iso(start + 2 * DAY), quantity: '1', groups: [{ group: { region: 'us' }, quantity: '1' }] },
      { start: iso(start + 2 * DAY), end: iso(start + 3 * DAY), quantity: '1', groups: [{ group: { region: null }, quantity: '1' }] },
    ]);
    const narrowed = await summary({ customer_id: customerId, window: 'PERIOD', subscription_id: subscriptionId, from: iso(start + DAY), to: iso(start + DAY + 1) });
    const mine = narrowed.body.meters.find((m: { meter_id: string }) => m.meter_id === calls.meterId);
    expect(mine.buckets).toEqual([{ start: iso(start + DAY), end: iso(start + 2 * DAY), quantity: '1' }]);

    const other = await customer();
    const refused = await summary({ customer_id: other, window: 'PERIOD', subscription_id: subscriptionId });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'SUBSCRIPTION_NOT_FOUND', context: { subscription_id: subscriptionId } });
  });

  it('lists the periods of the anchor’s cycles between the line’s first and current periods, and only counts them past the limit', () => {
    const month = { value: 1, unit: 'MONTH' as const };
    const anchor = at('2026-01-31T00:00:00Z');
    const line = { startedAt: at('2026-02-10T00:00:00Z'), periodStartAt: at('2026-04-30T00:00:00Z'), periodEndAt: at('2026-05-31T00:00:00Z'), billingPeriod: month };
    const all = linePeriods(line, anchor, {}, 744);
    expect(all.periods.map((p) => [new Date(p.from).toISOString().slice(0, 10), new Date(p.to).toISOString().slice(0, 10)])).toEqual([
      ['2026-02-10', '2026-02-28'],
      ['2026-02-28', '2026-03-31'],
      ['2026-03-31', '2026-04-30'],
      ['2026-04-30', '2026-05-31'],
    ]);
    expect(linePeriods(line, anchor, { from: at('2026-03-31T00:00:00Z'), to: at('2026-04-30T00:00:00Z') }, 744).periods).toEqual([all.periods[2]]);
    expect(linePeriods(line, anchor, {}, 3)).toEqual({ count: 4, periods: [] });
    expect(linePeriods({ ...line, startedAt: null }, anchor, {}, 744).periods).toEqual([all.periods[3]]);
    const minutes = linePeriods({ startedAt: 0, periodStartAt: 1000 * 60_000, periodEndAt: 1001 * 60_000, billingPeriod: { value: 1, unit: 'MINUTE' } }, 0, {}, 744);
    expect(minutes).toEqual({ count: 1001, periods: [] });
  });
  it('answers 400, not 500, for a window that would reach past year 9999 or before year 0001', async () => {
    const customerId = (await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'edges@example.com' })).body.id;
    for (const body of [
      { window: 'HOUR', from: '9999-12-31T12:00:00.000000Z' },
      { window: 'DAY', to: '0001-01-02T00:00:00.000000Z' },
    ]) {
      const res = await summary({ customer_id: customerId, ...body });
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'VALIDATION' });
    }
  });
});
