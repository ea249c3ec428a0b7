import { newId } from '../../domain/ids';
import { formatDateTime } from '../../domain/datetime';
import type { Aggregation, MeterFilter } from '../../domain/usage/meters';
import { createAccount, createChannel, createOperatorApiKey } from '../../scripts/operator/accounts';
import { usePlatform, type ApiResponse } from '../support/platform';

const platform = usePlatform();
const INGEST = '/v2/usage-events/ingest';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Version {
  effectiveFrom?: Date;
  property?: string | null;
  filters?: MeterFilter[];
  groupBy?: string[];
}

/** A meter written straight into the tables, as another API process's meters/create or meters/update would leave it. */
async function meter(eventName: string, aggregation: Aggregation, first: Version = {}, later: Version[] = [], accountId = platform.accountId): Promise<string> {
  const id = newId('meter');
  const now = new Date();
  const versions = [first, ...later];
  await platform.db.meter.create({
    data: {
      id,
      accountId,
      name: id,
      eventName,
      aggregation,
      status: 'ACTIVE',
      version: versions.length,
      createdAt: now,
      updatedAt: now,
      versions: {
        create: versions.map((v, i) => ({
          version: i + 1,
          effectiveFrom: v.effectiveFrom ?? new Date(0),
          property: v.property ?? null,
          filters: (v.filters ?? []) as never,
          groupBy: v.groupBy ?? [],
          createdAt: now,
        })),
      },
    },
  });
  return id;
}

async function customer(channelId = platform.channelIds[0], secret?: string): Promise<string> {
  const res = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'usage@example.com', channel_id: channelId }, { secret });
  expect(res.status).toBe(200);
  return res.body.id;
}

let sequence = 0;
const eventId = () => `evt-${Date.now()}-${++sequence}`;

/** The start of the hour two hours ago: every test's events fall in hours wholly inside the late window. */
const baseHour = Math.floor((Date.now() - 2 * HOUR) / HOUR) * HOUR;
const at = (offsetMs: number) => formatDateTime(new Date(baseHour + offsetMs));

function event(customerId: string, eventName: string, overrides: Record<string, unknown> = {}) {
  return { event_id: eventId(), event_name: eventName, customer_id: customerId, timestamp: at(90_000), properties: {}, ...overrides };
}

async function ingest(events: unknown[], options: { secret?: string; headers?: Record<string, string> } = {}): Promise<ApiResponse> {
  return platform.call(INGEST, { events }, options);
}

interface RollupRow {
  grain: string;
  bucket: Date;
  group_key: string;
  event_count: string;
  value_sum: string;
  value_max: string | null;
  latest_at: Date | null;
  latest_event_id: string | null;
  latest_value: string | null;
}

async function rollups(meterId: string, customerId: string): Promise<RollupRow[]> {
  return platform.db.$queryRawUnsafe<RollupRow[]>(
    `SELECT grain, bucket, group_key, event_count::text, value_sum::text, value_max::text, latest_at, latest_event_id, latest_value::text
       FROM usage_rollups WHERE meter_id = $1 AND customer_id = $2 ORDER BY grain, bucket, group_key`,
    meterId,
    customerId,
  );
}

async function storedEvents(customerId: string): Promise<number> {
  const [row] = await platform.db.$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM usage_events WHERE customer_id = $1', customerId);
  return row!.n;
}

const DEEP = 'deeply nested properties';

const statuses = (res: ApiResponse) => res.body.results.map((r: { status: string; reason?: string }) => (r.reason ? `${r.status}:${r.reason}` : r.status));

describe('usage-events/ingest', () => {
  it('accepts events and rolls them up per minute and hour, by group, within the filters', async () => {
    const cust = await customer();
    const calls = await meter('api.call', 'COUNT');
    const tokens = await meter('api.call', 'SUM', { property: 'usage.tokens', groupBy: ['region'], filters: [{ property: 'tier', operator: 'NOT_IN', values: ['free'] }] });
    const peak = await meter('api.call', 'MAX', { property: 'usage.tokens' });
    const events = [
      event(cust, 'api.call', { timestamp: at(10_000), properties: { region: 'eu', tier: 'pro', usage: { tokens: 100 } } }),
      event(cust, 'api.call', { timestamp: at(20_000), properties: { region: 'eu', tier: 'pro', usage: { tokens: '0.25' } } }),
      event(cust, 'api.call', { timestamp: at(MINUTE + 5_000), properties: { region: 'us', tier: 'pro', usage: { tokens: 7 } } }),
      event(cust, 'api.call', { timestamp: at(MINUTE + 6_000), properties: { region: 'us', tier: 'free', usage: { tokens: 1000 } } }),
    ];
    const res = await ingest(events);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ results: events.map((e) => ({ event_id: e.event_id, status: 'ACCEPTED' })), accepted: 4, duplicates: 0, rejected: 0 });

    const minute0 = new Date(baseHour);
    const minute1 = new Date(baseHour + MINUTE);
    const hour = new Date(baseHour);
    expect((await rollups(calls, cust)).map((r) => [r.grain, r.bucket, r.group_key, r.event_count])).toEqual([
      ['h', hour, '[]', '4'],
      ['m', minute0, '[]', '2'],
      ['m', minute1, '[]', '2'],
    ]);
    // The free-tier event is left out by the filter; the values are exact decimals.
    expect((await rollups(tokens, cust)).map((r) => [r.grain, r.bucket, r.group_key, r.event_count, r.value_sum, r.value_max])).toEqual([
      ['h', hour, '["eu"]', '2', '100.250000000000', '100.000000000000'],
      ['h', hour, '["us"]', '1', '7.000000000000', '7.000000000000'],
      ['m', minute0, '["eu"]', '2', '100.250000000000', '100.000000000000'],
      ['m', minute1, '["us"]', '1', '7.000000000000', '7.000000000000'],
    ]);
    expect((await rollups(peak, cust)).filter((r) => r.grain === 'h').map((r) => r.value_max)).toEqual(['1000.000000000000']);
  });

  it('keeps the latest value by timestamp then event id, whatever order the batches come in, and distinct values per minute', async () => {
    const cust = await customer();
    const seats = await meter('seats.snapshot', 'LATEST', { property: 'seats' });
    const users = await meter('seats.snapshot', 'UNIQUE_COUNT', { property: 'user' });
    const first = await ingest([
      event(cust, 'seats.snapshot', { event_id: 'snap-b', timestamp: at(30_000), properties: { seats: 5, user: 'ada' } }),
      event(cust, 'seats.snapshot', { event_id: 'snap-z', timestamp: at(10_000), properties: { seats: 9, user: 'ada' } }),
    ]);
    expect(first.body.accepted).toBe(2);
    // Earlier timestamp: does not replace. Same timestamp, larger id: replaces.
    await ingest([event(cust, 'seats.snapshot', { event_id: 'snap-y', timestamp: at(20_000), properties: { seats: 1, user: 'bob' } })]);
    let hour = (await rollups(seats, cust)).find((r) => r.grain === 'h')!;
    expect([hour.latest_event_id, hour.latest_value, hour.latest_at, hour.event_count]).toEqual(['snap-b', '5.000000000000', new Date(baseHour + 30_000), '3']);
    await ingest([event(cust, 'seats.snapshot', { event_id: 'snap-c', timestamp: at(30_000), properties: { seats: 6, user: 'bob' } })]);
    hour = (await rollups(seats, cust)).find((r) => r.grain === 'h')!;
    expect([hour.latest_event_id, hour.latest_value]).toEqual(['snap-c', '6.000000000000']);

    const distinct = await platform.db.$queryRawUnsafe<{ bucket: Date; value: string }[]>(
      'SELECT bucket, value FROM usage_distinct_values WHERE meter_id = $1 AND customer_id = $2 ORDER BY value',
      users,
      cust,
    );
    expect(distinct).toEqual([
      { bucket: new Date(baseHour), value: 'ada' },
      { bucket: new Date(baseHour), value: 'bob' },
    ]);
  });

  it('measures each event by the meter version in force at its timestamp', async () => {
    const cust = await customer();
    const change = new Date(baseHour + 30 * MINUTE);
    const bytes = await meter('storage.write', 'SUM', { property: 'bytes' }, [{ effectiveFrom: change, property: 'bytes', groupBy: ['bucket'] }]);
    const res = await ingest([
      event(cust, 'storage.write', { timestamp: at(29 * MINUTE + 59_999), properties: { bytes: 10, bucket: 'logs' } }),
      event(cust, 'storage.write', { timestamp: at(30 * MINUTE), properties: { bytes: 20, bucket: 'logs' } }),
    ]);
    expect(res.body.accepted).toBe(2);
    expect((await rollups(bytes, cust)).filter((r) => r.grain === 'h').map((r) => [r.group_key, r.value_sum])).toEqual([
      ['["logs"]', '20.000000000000'],
      ['[]', '10.000000000000'],
    ]);
  });

  it('counts an event id once: across batches, within a batch, with or without an Idempotency-Key', async () => {
    const cust = await customer();
    const calls = await meter('dedupe.call', 'COUNT');
    const a = event(cust, 'dedupe.call');
    const b = event(cust, 'dedupe.call');
    const first = await ingest([a, b, { ...a, properties: { other: true } }]);
    expect(statuses(first)).toEqual(['ACCEPTED', 'ACCEPTED', 'DUPLICATE:DUPLICATE_IN_BATCH']);
    expect(first.body.results[2].context).toEqual({ event_id: a.event_id, first_index: 0 });
    expect([first.body.accepted, first.body.duplicates]).toEqual([2, 1]);

    const again = await ingest([b, a, event(cust, 'dedupe.call', { event_id: 'fresh-1' })]);
    expect(statuses(again)).toEqual(['DUPLICATE', 'DUPLICATE', 'ACCEPTED']);

    const headers = { 'idempotency-key': `ingest-${eventId()}` };
    const keyed = [a, event(cust, 'dedupe.call', { event_id: 'fresh-2' })];
    const once = await ingest(keyed, { headers });
    expect(statuses(once)).toEqual(['DUPLICATE', 'ACCEPTED']);
    const replay = await ingest(keyed, { headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(once.body);

    expect(await storedEvents(cust)).toBe(4);
    expect((await rollups(calls, cust)).filter((r) => r.grain === 'h').map((r) => r.event_count)).toEqual(['4']);
  });

  it('counts identical batches sent at once from several connections exactly once, overlapping ones in any order, and distinct ones all', async () => {
    const customers = [await customer(), await customer()];
    const calls = await meter('race.call', 'COUNT');
    const tokens = await meter('race.call', 'SUM', { property: 'n', groupBy: ['k'] });
    const events = Array.from({ length: 300 }, (_, i) =>
      event(customers[i % 2]!, 'race.call', { timestamp: at((i % 7) * MINUTE + i), properties: { n: i, k: `g${i % 3}` } }),
    );
    const batches = Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? events : [...events].reverse().slice(i * 10)));
    // Batches without a common id, sent at the same time, may be stored by one statement (services/usage/ingest-queue.ts).
    const distinct = Array.from({ length: 6 }, (_, b) =>
      Array.from({ length: 50 }, (_, i) => event(customers[i % 2]!, 'race.call', { timestamp: at(((b + i) % 7) * MINUTE + i), properties: { n: 1000, k: 'g9' } })),
    );
    const answers = await Promise.all([...batches, ...distinct].map((batch) => ingest(batch)));
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(answers.slice(0, 8).reduce((sum, answer) => sum + answer.body.accepted, 0)).toBe(300);
    for (const answer of answers.slice(8)) expect(answer.body.accepted).toBe(50);

    const [totals] = await platform.db.$queryRawUnsafe<{ m: string; h: string; sum_h: string }[]>(
      `SELECT sum(event_count) FILTER (WHERE grain = 'm' AND meter_id = $1)::text AS m,
              sum(event_count) FILTER (WHERE grain = 'h' AND meter_id = $1)::text AS h,
              sum(value_sum) FILTER (WHERE grain = 'h' AND meter_id = $2)::text AS sum_h
         FROM usage_rollups WHERE meter_id IN ($1, $2)`,
      calls,
      tokens,
    );
    expect(totals).toEqual({ m: '600', h: '600', sum_h: `${(299 * 300) / 2 + 300 * 1000}.000000000000` });
  });

  it('rejects each bad event with its reason and context, and accepts the rest', async () => {
    const cust = await customer();
    const other = await createAccount(platform.db, 'Other usage account');
    const otherChannel = await createChannel(platform.db, other.id, 'other');
    const otherCustomer = await customer(otherChannel.id, (await createOperatorApiKey(platform.db, { accountId: other.id, name: 'o' })).secret);
    const sum = await meter('bad.input', 'SUM', { property: 'amount' });
    const unique = await meter('bad.unique', 'UNIQUE_COUNT', { property: 'user' });
    const good = () => event(cust, 'bad.input', { properties: { amount: 1 } });
    const many = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`p${i}`, i]));
    const cases: [unknown, string, Record<string, unknown>?][] = [
      [good(), 'ACCEPTED'],
      [event('cust_unknown', 'bad.input', { properties: { amount: 1 } }), 'REJECTED:CUSTOMER_NOT_FOUND', { customer_id: 'cust_unknown' }],
      [event(cust, 'no.such.meter'), 'REJECTED:NO_METER', { event_name: 'no.such.meter' }],
      [event(cust, 'bad.input', { timestamp: '9999-12-31T23:59:59.999999Z', properties: { amount: 1 } }), 'REJECTED:TIMESTAMP_TOO_FAR_IN_FUTURE'],
      [event(cust, 'bad.input', { timestamp: formatDateTime(new Date(Date.now() - 36 * 24 * HOUR)), properties: { amount: 1 } }), 'REJECTED:TIMESTAMP_TOO_OLD'],
      [event(cust, 'bad.input', { properties: {} }), 'REJECTED:PROPERTY_MISSING', { meter_id: sum, property: 'amount' }],
      [event(cust, 'bad.input', { properties: { amount: 'lots' } }), 'REJECTED:PROPERTY_NOT_NUMERIC', { meter_id: sum, property: 'amount' }],
      [event(cust, 'bad.input', { properties: { amount: -3 } }), 'REJECTED:NEGATIVE_VALUE', { meter_id: sum, property: 'amount' }],
      [event(cust, 'bad.unique', { properties: { user: { id: 1 } } }), 'REJECTED:PROPERTY_NOT_SCALAR', { meter_id: unique, property: 'user' }],
      [good(), 'ACCEPTED'],
      [event(cust, 'bad.input', { event_id: 'nul\u0000id' }), 'REJECTED:INVALID_EVENT', { field: 'event_id' }],
      [event(cust, 'bad.input', { properties: { amount: 1, note: 'a\u0000b' } }), 'REJECTED:INVALID_EVENT', { field: 'properties.note' }],
      [event(cust, 'bad.input', { properties: { amount: 1, ['k\u0000']: 1 } }), 'REJECTED:INVALID_EVENT', { field: 'properties.k\uFFFD' }],
      [event(cust, 'bad.input', { properties: { amount: 1, note: '\ud800' } }), 'REJECTED:INVALID_EVENT', { field: 'properties.note' }],
      [event(cust, 'bad.input', { properties: many }), 'REJECTED:INVALID_EVENT', { field: 'properties' }],
      [{ ...event(cust, 'bad.input'), properties: DEEP }, 'REJECTED:INVALID_EVENT', { field: 'properties.nested.nested.nested.nested.nested' }],
      [event(cust, 'bad.input', { properties: { amount: 1, blob: 'x'.repeat(9000) } }), 'REJECTED:INVALID_EVENT', { field: 'properties' }],
      [event(cust, 'bad.input', { timestamp: '2026-02-30T00:00:00.000000Z' }), 'REJECTED:INVALID_EVENT', { field: 'timestamp' }],
      [event(cust, 'bad.input', { timestamp: '2026-01-01T00:00:00+01:00' }), 'REJECTED:INVALID_EVENT', { field: 'timestamp' }],
      [event(cust, 'bad.input', { event_id: 'x'.repeat(256) }), 'REJECTED:INVALID_EVENT', { field: 'event_id' }],
      [event(cust, 'bad.input', { extra: 1 }), 'REJECTED:INVALID_EVENT', { field: 'extra' }],
      [event(cust, 'bad input'), 'REJECTED:INVALID_EVENT', { field: 'event_name' }],
      [event(cust, 'bad.input', { properties: [1] }), 'REJECTED:INVALID_EVENT', { field: 'properties' }],
      ['not an event', 'REJECTED:INVALID_EVENT', { field: 'event' }],
      [null, 'REJECTED:INVALID_EVENT', { field: 'event' }],
      [good(), 'ACCEPTED'],
      [event(otherCustomer, 'bad.input', { properties: { amount: 1 } }), 'REJECTED:CUSTOMER_NOT_FOUND', { customer_id: otherCustomer }],
    ];
    // Nested 10,000 levels deep: written as text, JSON.stringify would overflow the stack first.
    const body = JSON.stringify({ events: cases.map(([e]) => e) }).replace(JSON.stringify(DEEP), `${'{"nested":'.repeat(10_000)}{"amount":1}${'}'.repeat(10_000)}`);
    const res = await platform.call(INGEST, undefined, { rawBody: body });
    expect(res.status).toBe(200);
    expect(statuses(res)).toEqual(cases.map(([, status]) => status));
    cases.forEach(([, , context], i) => {
      if (context) expect({ i, context: res.body.results[i].context }).toEqual({ i, context: expect.objectContaining(context) });
    });
    expect(res.body.results[3].context).toEqual({ timestamp: '9999-12-31T23:59:59.999999Z', latest_accepted: expect.any(String) });
    expect(res.body.results[4].context).toEqual({ timestamp: expect.any(String), earliest_accepted: expect.any(String), late_event_days: 35 });
    expect(res.body.results[10].event_id).toBeUndefined();
    expect(res.body.results[20].event_id).toBe((cases[20]![0] as { event_id: string }).event_id);
    expect([res.body.accepted, res.body.duplicates, res.body.rejected]).toEqual([3, 0, cases.length - 3]);
    expect(await storedEvents(cust)).toBe(3);
    expect((await rollups(sum, cust)).filter((r) => r.grain === 'h').map((r) => [r.event_count, r.value_sum])).toEqual([['3', '3.000000000000']]);
  });

  it('answers under an Idempotency-Key what it answers without one, and measures long texts and tiny numbers safely', async () => {
    const cust = await customer();
    const sum = await meter('edge.sum', 'SUM', { property: 'amount', groupBy: ['region'] });
    const headers = () => ({ 'idempotency-key': `edge-${eventId()}` });
    // A property name with a NUL goes into the answer as U+FFFD: the stored answer is jsonb.
    const nul = await ingest([event(cust, 'edge.sum', { properties: { amount: 1, ['k\u0000']: 1 } })], { headers: headers() });
    expect([nul.status, nul.body.results[0].reason, nul.body.results[0].context.field]).toEqual([200, 'INVALID_EVENT', 'properties.k\uFFFD']);
    // Too deep to hash for the key: a 400, not a stack overflow.
    const deep = `{"events":[{"event_id":"deep","event_name":"edge.sum","customer_id":"${cust}","timestamp":"${at(90_000)}","properties":${'{"n":'.repeat(5_000)}1${'}'.repeat(5_000)}}]}`;
    const refused = await platform.call(INGEST, undefined, { rawBody: deep, headers: headers() });
    expect([refused.status, refused.body.code]).toEqual([400, 'VALIDATION']);
    // A group-by value too long to be a roll-up key is refused alone; a number below 1e-6 is a number.
    const res = await ingest(
      [event(cust, 'edge.sum', { properties: { amount: 1, region: 'r'.repeat(201) } }), event(cust, 'edge.sum', { properties: { amount: 1e-7, region: 'eu' } })],
      { headers: headers() },
    );
    expect(res.body.results.map((r: { status: string; reason?: string }) => r.reason ?? r.status)).toEqual(['PROPERTY_TOO_LONG', 'ACCEPTED']);
    expect(res.body.results[0].context).toEqual({ meter_id: sum, property: 'region' });
    expect((await rollups(sum, cust)).filter((r) => r.grain === 'h').map((r) => r.value_sum)).toEqual(['0.000000100000']);
  });

  it('refuses a batch that is not well-formed as a whole', async () => {
    const cust = await customer();
    const one = event(cust, 'whole.batch');
    expect((await platform.call(INGEST, [one])).status).toBe(400);
    expect((await platform.call(INGEST, {})).body.context.constraints.events.type).toBe('REQUIRED');
    expect((await platform.call(INGEST, { events: [] })).body.context.constraints.events.type).toBe('MIN');
    const tooMany = await platform.call(INGEST, { events: Array.from({ length: 1001 }, () => one) });
    expect([tooMany.status, tooMany.body.context.constraints.events.type]).toEqual([400, 'MAX']);
    expect((await platform.call(INGEST, { events: [one], extra: 1 })).status).toBe(400);
    // A NUL outside the events is still the body's (api/http/unstorable-characters.ts).
    expect((await platform.call(INGEST, { events: [one], channel_id: 'chn_\u0000' })).status).toBe(400);
    const huge = await platform.call(INGEST, { events: Array.from({ length: 1000 }, () => event(cust, 'whole.batch', { properties: { pad: 'x'.repeat(1100) } })) });
    expect([huge.status, huge.body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('accepts only customers the key reaches', async () => {
    const inOne = await customer(platform.channelIds[0]);
    const inTwo = await customer(platform.channelIds[1]);
    await meter('scoped.call', 'COUNT');
    const bound = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'bound', channelIds: [platform.channelIds[1]] });
    const res = await ingest([event(inOne, 'scoped.call'), event(inTwo, 'scoped.call')], { secret: bound.secret });
    expect(statuses(res)).toEqual(['REJECTED:CUSTOMER_NOT_FOUND', 'ACCEPTED']);
    const narrowed = await platform.call(INGEST, { channel_id: platform.channelIds[0], events: [event(inOne, 'scoped.call'), event(inTwo, 'scoped.call')] });
    expect(statuses(narrowed)).toEqual(['ACCEPTED', 'REJECTED:CUSTOMER_NOT_FOUND']);
    const readOnly = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'ro', permissions: ['customers:get'] });
    expect((await ingest([event(inOne, 'scoped.call')], { secret: readOnly.secret })).status).toBe(403);
  });

  it('measures with a meter created or archived by another process from the next batch on', async () => {
    const cust = await customer();
    const before = await ingest([event(cust, 'late.meter')]);
    expect(statuses(before)).toEqual(['REJECTED:NO_METER']);
    const created = await meter('late.meter', 'COUNT');
    expect(statuses(await ingest([event(cust, 'late.meter')]))).toEqual(['ACCEPTED']);
    const second = await meter('late.meter', 'SUM', { property: 'n' });
    expect(statuses(await ingest([event(cust, 'late.meter', { properties: { n: 2 } })]))).toEqual(['ACCEPTED']);
    expect((await rollups(second, cust)).filter((r) => r.grain === 'h').map((r) => r.value_sum)).toEqual(['2.000000000000']);
    await platform.db.meter.updateMany({ where: { eventName: 'late.meter' }, data: { status: 'ARCHIVED', archivedAt: new Date(), updatedAt: new Date() } });
    expect(statuses(await ingest([event(cust, 'late.meter', { properties: { n: 2 } })]))).toEqual(['REJECTED:NO_METER']);
    expect((await rollups(created, cust)).filter((r) => r.grain === 'h').map((r) => r.event_count)).toEqual(['2']);
  });
});
