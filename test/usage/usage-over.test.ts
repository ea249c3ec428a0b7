import fc from 'fast-check';
import { quantityOf } from '../../domain/usage/aggregate';
import { formatDecimal } from '../../domain/usage/decimal';
import { AGGREGATIONS, type Aggregation, type MeterFilter } from '../../domain/usage/meters';
import { spanParts } from '../../domain/usage/span-parts';
import { ingestUsageEvents } from '../../services/usage/ingest';
import type { UsageEventInput } from '../../services/usage/ingest-outcomes';
import { ALL_GROUPS, usageOver } from '../../services/usage/usage-over';
import { seedAccount, seedCustomer } from '../payments/fixtures';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { ingest, insertMeter, isoOf, naiveUsage, plain, testMeter, type TestEvent, type TestMeter } from './usage-fixtures';

/**
 * usageOver answers exactly what the accepted events of a span add up to, whatever the span's
 * millisecond boundaries (docs/usage.md, "Reading usage"): invoices bill periods by it. The
 * properties run twice: over events written as ingestion writes them (usage-fixtures.ts, which
 * can also date their receipt before the meter or after its archiving), and over events stored
 * by usage-events/ingest itself, in batches that repeat an id. Seeded and reproducible: the seed
 * is printed, USAGE_OVER_SEED replays a run.
 */
const RUNS = Number(process.env.USAGE_OVER_RUNS ?? 150);
const INGEST_RUNS = Number(process.env.USAGE_OVER_INGEST_RUNS ?? 100);
const SEED = Number(process.env.USAGE_OVER_SEED ?? Date.now() % 2 ** 31);

let database: TestDatabase;
const accountId = 'acct_usage_over';

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

const T0 = Date.UTC(2026, 10, 20, 10, 0, 0);
const MINUTE = 60_000;
const HOUR = 3_600_000;
const CREATED = T0 - 24 * HOUR;
const at = (text: string) => Date.parse(`2026-11-20T${text}Z`);

describe('spanParts', () => {
  it('covers a span with whole hours, whole minutes and sub-minute slices that do not overlap', () => {
    expect(spanParts(at('09:58:30.250'), at('12:01:00.001'))).toEqual({
      wholeMinutes: { from: at('09:59:00'), to: at('12:01:00') },
      hours: [{ from: at('10:00:00'), to: at('12:00:00') }],
      minutes: [
        { from: at('09:59:00'), to: at('10:00:00') },
        { from: at('12:00:00'), to: at('12:01:00') },
      ],
      raw: [
        { from: at('09:58:30.250'), to: at('09:59:00') },
        { from: at('12:01:00'), to: at('12:01:00.001') },
      ],
    });
    expect(spanParts(at('10:00:00'), at('11:00:00'))).toEqual({
      wholeMinutes: { from: at('10:00:00'), to: at('11:00:00') },
      hours: [{ from: at('10:00:00'), to: at('11:00:00') }],
      minutes: [],
      raw: [],
    });
    expect(spanParts(at('10:00:10'), at('10:00:50')).raw).toEqual([{ from: at('10:00:10'), to: at('10:00:50') }]);
    expect(spanParts(at('10:00:10'), at('10:59:00'))).toMatchObject({ hours: [], minutes: [{ from: at('10:01:00'), to: at('10:59:00') }] });
    expect(spanParts(at('10:00:10'), at('10:00:10'))).toEqual({ wholeMinutes: null, hours: [], minutes: [], raw: [] });
  });
});

describe('usageOver at odd boundaries', () => {
  let seq = 0;
  async function setUp(aggregation: Aggregation, versions: Parameters<typeof testMeter>[0]['versions'], events: Array<Omit<TestEvent, 'eventId' | 'eventName' | 'customerId' | 'receivedAt'> & Partial<TestEvent>>) {
    seq++;
    const meter = testMeter({ accountId, meterId: `mtr_example${seq}`, eventName: `example${seq}`, aggregation, createdAt: CREATED, versions });
    const customerId = `cust_example${seq}`;
    // Event ids are the account's: each example's get its number.
    const all = events.map((e, i) => ({ eventName: meter.eventName, customerId, receivedAt: CREATED + 1000, ...e, eventId: `${seq}:${e.eventId ?? i}` }));
    await insertMeter(database.db, meter);
    await ingest(database.db, accountId, [meter], all);
    const quantity = async (from: string, to: string, groupBy = false) => {
      const usage = await usageOver(database.db, { accountId, meter, customerId, from: at(from), to: at(to), groupBy });
      return Object.fromEntries([...usage].map(([key, aggregate]) => [key, formatDecimal(quantityOf(aggregation, aggregate))]));
    };
    return { meter, customerId, quantity };
  }

  it('counts an event at a boundary in the span it starts, to the millisecond', async () => {
    const stamps = ['09:59:59.999', '10:00:00.000', '10:00:59.999', '10:01:00.000', '10:59:59.999', '11:00:00.000', '11:00:00.001'];
    const { quantity } = await setUp(
      'SUM',
      [{ property: 'v', filters: [], groupBy: [], effectiveFrom: 0 }],
      stamps.map((stamp, i) => ({ timestamp: at(stamp), properties: { v: String(10 ** i) } })),
    );
    expect(await quantity('10:00:00', '11:00:00')).toEqual({ [ALL_GROUPS]: '11110' });
    expect(await quantity('09:59:59.999', '10:00:00.001')).toEqual({ [ALL_GROUPS]: '11' });
    expect(await quantity('10:00:59.999', '11:00:00.001')).toEqual({ [ALL_GROUPS]: '111100' });
    expect(await quantity('10:00:00.001', '10:59:59.999')).toEqual({ [ALL_GROUPS]: '1100' });
    expect(await quantity('09:00:00', '12:00:00')).toEqual({ [ALL_GROUPS]: '1111111' });
    expect(await quantity('11:00:00.002', '13:00:00')).toEqual({ [ALL_GROUPS]: '0' });
  });

  it('measures edge events with the version in force at their own timestamp, and its filters', async () => {
    const change = at('10:00:30.500');
    const { quantity } = await setUp(
      'COUNT',
      [
        { property: null, filters: [{ property: 'kind', operator: 'IN', values: ['a'] }], groupBy: ['region'], effectiveFrom: 0 },
        { property: null, filters: [], groupBy: ['kind'], effectiveFrom: change },
      ],
      [
        { timestamp: at('10:00:30.499'), properties: { kind: 'a', region: 'eu' } },
        { timestamp: at('10:00:30.499'), properties: { kind: 'b', region: 'eu' } },
        { timestamp: at('10:00:30.500'), properties: { kind: 'b', region: 'eu' } },
        { timestamp: at('10:00:45.000'), properties: { region: 'us' } },
        { timestamp: at('10:01:10.000'), properties: { kind: 'a' } },
      ],
    );
    expect(await quantity('10:00:30.000', '10:00:31.000')).toEqual({ [ALL_GROUPS]: '2' });
    expect(await quantity('10:00:30.000', '10:02:00.000', true)).toEqual({ '["eu"]': '1', '["b"]': '1', '[null]': '1', '["a"]': '1' });
    expect(await quantity('10:00:00.000', '10:00:30.500')).toEqual({ [ALL_GROUPS]: '1' });
  });

  it('counts distinct values across whole minutes and edges once, and takes the latest by time then event id', async () => {
    const unique = await setUp(
      'UNIQUE_COUNT',
      [{ property: 'user', filters: [], groupBy: [], effectiveFrom: 0 }],
      [
        { timestamp: at('10:00:10'), properties: { user: 'ann' } },
        { timestamp: at('10:30:00'), properties: { user: 'ann' } },
        { timestamp: at('10:30:00'), properties: { user: 7 } },
        { timestamp: at('11:00:59.999'), properties: { user: '7' } },
        { timestamp: at('11:00:59.999'), properties: { user: 'bob' } },
      ],
    );
    expect(await unique.quantity('10:00:05', '11:01:00')).toEqual({ [ALL_GROUPS]: '3' });
    expect(await unique.quantity('10:00:11', '11:00:59.999')).toEqual({ [ALL_GROUPS]: '2' });

    const latest = await setUp(
      'LATEST',
      [{ property: 'v', filters: [], groupBy: [], effectiveFrom: 0 }],
      [
        { eventId: 'B', timestamp: at('10:20:00.123'), properties: { v: '-2.5' } },
        { eventId: 'a', timestamp: at('10:20:00.123'), properties: { v: '4.000000000001' } },
        { eventId: 'c', timestamp: at('10:20:00.122'), properties: { v: '9' } },
        // Microseconds kept: 'A' is later than 'z' of the same millisecond.
        { eventId: 'z', timestamp: at('10:40:05.000') + 0.1, properties: { v: '1' } },
        { eventId: 'A', timestamp: at('10:40:05.000') + 0.9, properties: { v: '2' } },
      ],
    );
    // Event ids compare by code point: 'a' follows 'B'.
    expect(await latest.quantity('10:00:00', '10:30:00')).toEqual({ [ALL_GROUPS]: '4.000000000001' });
    expect(await latest.quantity('10:20:00.100', '10:20:00.124')).toEqual({ [ALL_GROUPS]: '4.000000000001' });
    expect(await latest.quantity('10:20:00.100', '10:20:00.123')).toEqual({ [ALL_GROUPS]: '9' });
    expect(await latest.quantity('10:40:04.500', '10:40:05.500')).toEqual({ [ALL_GROUPS]: '2' });
    expect(await latest.quantity('10:00:00', '11:00:00')).toEqual({ [ALL_GROUPS]: '2' });
  });

  it('leaves out events received before the meter existed or after it was archived, at the edges too', async () => {
    const { quantity } = await setUp(
      'COUNT',
      [{ property: null, filters: [], groupBy: [], effectiveFrom: 0 }],
      [
        { timestamp: at('10:00:10'), properties: {}, receivedAt: CREATED - 1 },
        { timestamp: at('10:00:20'), properties: {}, receivedAt: CREATED },
        { timestamp: at('10:30:00'), properties: {}, receivedAt: CREATED - 1 },
      ],
    );
    expect(await quantity('10:00:00.500', '10:59:00')).toEqual({ [ALL_GROUPS]: '1' });
  });
});

// The property: random meters (any aggregation, filters, group-by, a version change at a random
// millisecond), random events near and away from minute and hour boundaries, some with
// microseconds (some of another customer, event name, or received outside the meter's life), and
// random spans.
const WINDOW = { from: T0 - 100 * MINUTE, to: T0 + 160 * MINUTE };
const instant = fc.oneof(
  fc.integer({ min: WINDOW.from, max: WINDOW.to }),
  fc.tuple(fc.integer({ min: -100, max: 160 }), fc.integer({ min: -1500, max: 1500 })).map(([minute, offset]) => T0 + minute * MINUTE + offset),
  fc.tuple(fc.integer({ min: -1, max: 2 }), fc.integer({ min: -70_000, max: 70_000 })).map(([hour, offset]) => T0 + hour * HOUR + offset),
);

const filters: fc.Arbitrary<MeterFilter[]> = fc.oneof(
  fc.constant<MeterFilter[]>([]),
  fc.record({ property: fc.constant('kind'), operator: fc.constantFrom('IN', 'NOT_IN' as const), values: fc.subarray(['a', 'b', 'c'], { minLength: 1 }) }).map((f) => [f]),
);
const definition = (aggregation: Aggregation) =>
  fc.record({
    property: aggregation === 'COUNT' ? fc.constant(null) : fc.constantFrom('v', 'nested.w'),
    filters,
    groupBy: fc.constantFrom<string[][]>([], ['region'], ['region', 'kind']),
  });

function valueOf(aggregation: Aggregation): fc.Arbitrary<unknown> {
  const decimal = fc.tuple(fc.integer({ min: 0, max: 10 ** 6 }), fc.integer({ min: 0, max: 999_999_999_999 })).map(([whole, fraction]) => `${whole}.${String(fraction).padStart(12, '0')}`);
  switch (aggregation) {
    case 'UNIQUE_COUNT':
      return fc.constantFrom('u1', 'u2', 'u3', 7, '7', 'x');
    case 'SUM':
      return fc.oneof(decimal, fc.nat(1000));
    default:
      return fc.oneof(decimal, decimal.map((d) => `-${d}`), fc.integer({ min: -1000, max: 1000 }));
  }
}

interface Scenario {
  aggregation: Aggregation;
  versions: Array<{ property: string | null; filters: MeterFilter[]; groupBy: string[]; effectiveFrom: number }>;
  archived: boolean;
  events: Array<Omit<TestEvent, 'customerId' | 'eventName'> & { customer: 0 | 1; otherName: boolean }>;
  spans: Array<{ from: number; to: number; groupBy: boolean; customer: 0 | 1 }>;
}

/** A span's ends (whole ms): anywhere, or at an event's timestamp's millisecond or one either side of it. */
const spanEnd = (events: Scenario['events']) =>
  events.length === 0 ? instant : fc.oneof(instant, fc.tuple(fc.constantFrom(...events.map((e) => Math.floor(e.timestamp))), fc.integer({ min: -1, max: 1 })).map(([t, d]) => t + d));

const scenario: fc.Arbitrary<Scenario> = fc.constantFrom(...AGGREGATIONS).chain((aggregation) =>
  fc.record({
    aggregation: fc.constant(aggregation),
    versions: fc
      .tuple(definition(aggregation), fc.option(fc.tuple(definition(aggregation), instant), { nil: undefined }))
      .map(([first, second]) => [{ ...first, effectiveFrom: 0 }, ...(second ? [{ ...second[0], effectiveFrom: second[1] }] : [])]),
    archived: fc.boolean(),
    events: fc
      .array(
        fc.record({
          prefix: fc.stringMatching(/^[A-Za-z]{1,2}$/),
          timestamp: fc.tuple(instant, fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 999 }))).map(([ms, micros]) => (ms * 1000 + micros) / 1000),
          v: valueOf(aggregation),
          w: valueOf(aggregation),
          kind: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }),
          region: fc.option(fc.constantFrom('eu', 'us', 1), { nil: undefined }),
          received: fc.constantFrom('before', 'during', 'during', 'during', 'during', 'after'),
          customer: fc.constantFrom(0, 0, 0, 1),
          otherName: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
        }),
        { maxLength: 60 },
      )
      .map((events) =>
        events.map((e, i) => ({
          eventId: `${e.prefix}-${i}`,
          timestamp: e.timestamp,
          properties: { v: e.v, nested: { w: e.w }, ...(e.kind === undefined ? {} : { kind: e.kind }), ...(e.region === undefined ? {} : { region: e.region }) },
          receivedAt: e.received === 'before' ? CREATED - 1 : e.received === 'during' ? CREATED + 1 : CREATED + 3 * 24 * HOUR,
          customer: e.customer as 0 | 1,
          otherName: e.otherName,
        })),
      ),
  }).chain((base) =>
    fc.record({
      spans: fc.array(
        fc.record({ a: spanEnd(base.events), b: spanEnd(base.events), groupBy: fc.boolean(), customer: fc.constantFrom(0, 0, 1) }).map(({ a, b, groupBy, customer }) => ({
          from: Math.min(a, b),
          to: Math.max(a, b),
          groupBy,
          customer: customer as 0 | 1,
        })),
        { minLength: 1, maxLength: 4 },
      ),
    }).map(({ spans }) => ({ ...base, spans })),
  ),
);

/** A run's meter (and another of the same events, whose roll-ups are to be left out) and two customers. */
async function runSetUp(s: Scenario, id: string, account: string, customers: string[]) {
  const meter: TestMeter = testMeter({
    accountId: account,
    meterId: `mtr_${id}`,
    eventName: `call_${id}`,
    aggregation: s.aggregation,
    createdAt: CREATED,
    archivedAt: s.archived ? CREATED + 2 * 24 * HOUR : null,
    versions: s.versions,
  });
  const other = testMeter({ accountId: account, meterId: `mtr_${id}_other`, eventName: meter.eventName, aggregation: 'COUNT', createdAt: CREATED, versions: [{ property: null, filters: [], groupBy: [], effectiveFrom: 0 }] });
  await insertMeter(database.db, meter);
  await insertMeter(database.db, other);
  const events: TestEvent[] = s.events.map(({ customer, otherName, ...e }) => ({
    ...e,
    eventId: `${e.eventId}-${id}`,
    customerId: customers[customer]!,
    eventName: otherName ? `${meter.eventName}_x` : meter.eventName,
  }));
  return { meter, other, events };
}

async function spansAgree(s: Scenario, account: string, meter: TestMeter, customers: string[], events: TestEvent[]) {
  for (const span of s.spans) {
    const request = { customerId: customers[span.customer]!, from: span.from, to: span.to, groupBy: span.groupBy };
    const actual = await usageOver(database.db, { accountId: account, meter, ...request });
    expect(plain(actual)).toEqual(plain(naiveUsage(meter, events, request)));
  }
}

describe('usageOver, property', () => {
  it(`equals the naive aggregation of the accepted events over random spans (${RUNS} runs)`, async () => {
    console.log(`usageOver property seed: ${SEED} (USAGE_OVER_SEED replays it)`);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        run++;
        const id = `p${run}`;
        const customers = [`cust_${id}_a`, `cust_${id}_b`];
        const { meter, other, events } = await runSetUp(s, id, accountId, customers);
        await ingest(database.db, accountId, [meter, other], events);
        await spansAgree(s, accountId, meter, customers, events);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, 300_000);
});

describe('usageOver over events stored by usage-events/ingest, property', () => {
  it(`equals the naive aggregation of the events ingestion accepted (${INGEST_RUNS} runs)`, async () => {
    const { accountId: account, channelIds: [channelId] } = await seedAccount(database.db);
    // Ingestion's clock: the events' window is then within its accepted range.
    const deps = { now: () => new Date(WINDOW.to), lateEventDays: 35 };
    const scope = { accountId: account, channels: null, keyChannels: null };
    let run = 0;
    await fc.assert(
      fc.asyncProperty(scenario, fc.integer({ min: 1, max: 3 }), async (s, batches) => {
        run++;
        const id = `i${run}`;
        const customers = [await seedCustomer(database.db, { accountId: account, channelId }), await seedCustomer(database.db, { accountId: account, channelId })];
        // Ingestion measures with the meters that are ACTIVE: an archived one measures nothing.
        const { meter, events } = await runSetUp({ ...s, archived: false }, id, account, customers);
        const inputs: UsageEventInput[] = events.map((e, index) => ({
          index,
          eventId: e.eventId,
          eventName: e.eventName,
          customerId: e.customerId,
          timestamp: isoOf(e.timestamp),
          at: Math.floor(e.timestamp),
          properties: e.properties,
          propertiesJson: JSON.stringify(e.properties),
        }));
        const accepted: TestEvent[] = [];
        for (let b = 0; b < batches; b++) {
          const part = inputs.filter((_, i) => i % batches === b).map((input, index) => ({ ...input, index }));
          // Each batch again carries the first event of the run: accepted once at most.
          const batch = b > 0 && inputs.length > 0 ? [...part, { ...inputs[0]!, index: part.length }] : part;
          const outcomes = await ingestUsageEvents(deps, database.db, scope, batch);
          outcomes.forEach((outcome, i) => {
            // Received now: while the meter exists and is not archived.
            if (outcome.status === 'ACCEPTED') accepted.push({ ...events.find((e) => e.eventId === batch[i]!.eventId)!, receivedAt: Date.now() });
          });
        }
        expect(new Set(accepted.map((e) => e.eventId)).size).toBe(accepted.length);
        await spansAgree(s, account, meter, customers, accepted);
      }),
      { numRuns: INGEST_RUNS, seed: SEED },
    );
  }, 300_000);
});
