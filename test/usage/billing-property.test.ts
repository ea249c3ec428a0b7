import fc from 'fast-check';
import type { PlannedInvoice } from '../../domain/subscriptions/billing';
import type { SubscriptionState } from '../../domain/subscriptions/state';
import { emptyAggregate, quantityOf } from '../../domain/usage/aggregate';
import { formatDecimal, parseDecimal } from '../../domain/usage/decimal';
import type { Aggregation } from '../../domain/usage/meters';
import { priceUsage, type UsageModel } from '../../domain/usage/pricing';
import { recordUsageBillings, usageLinesOf } from '../../services/subscriptions/usage-lines';
import { ingestUsageEvents } from '../../services/usage/ingest';
import { ALL_GROUPS } from '../../services/usage/usage-over';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { insertMeter, naiveUsage, testMeter, type TestEvent, type TestMeter } from './usage-fixtures';

/**
 * Usage billed is usage accepted (issue 42, "Reliability"): random batches with repeated ids
 * (the same id again, with another timestamp or value, is the same event), late events for
 * periods already invoiced, a meter whose definition changes mid-stream, and cycle ends. At
 * every cycle end the invoice's PERIOD line bills exactly the aggregation of the distinct
 * accepted events of its period, and each ADJUSTMENT line brings an earlier period to exactly
 * the aggregation of its events as accepted by then; after a last cycle end, every period's
 * billed quantity is its events' aggregation and, for meters that only grow, the period line and
 * its adjustments add up to the price of that quantity: every late event accounted for, none
 * twice. Through the ingestion service and the billing service (the workflow's activity calls
 * the same usageLinesOf); seeded, USAGE_BILLING_SEED replays a run.
 */
const RUNS = Number(process.env.USAGE_BILLING_RUNS ?? 500);
const SEED = Number(process.env.USAGE_BILLING_SEED ?? Date.now() % 2 ** 31);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 10, 2, 9, 17, 23, 411);
const PERIODS = 4;
const GRACE = HOUR;
const accountId = 'acct_usage_billing_property';

let database: TestDatabase;
let sequence = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.product.create({ data: { id: 'prod_usage_property', accountId, name: 'Calls', createdAt: new Date(T0), updatedAt: new Date(T0) } });
});
afterAll(() => database?.drop());

const periodOf = (k: number) => ({ start: T0 + k * DAY, end: T0 + (k + 1) * DAY });

interface Batch {
  kind: 'batch';
  events: { id: number; offset: number; value: number; kind: 'a' | 'b' }[];
}
interface CycleEnd {
  kind: 'cycle';
}
type Step = Batch | CycleEnd;

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('batch' as const),
      events: fc.array(
        fc.record({
          // A small pool of ids: repeats across and within batches.
          id: fc.integer({ min: 0, max: 14 }),
          // Where in the time already passed the event falls, as a fraction: late ones land in billed periods.
          offset: fc.double({ min: 0, max: 1, noNaN: true }),
          value: fc.integer({ min: 0, max: 2_000 }).map((v) => v / 8),
          kind: fc.constantFrom('a' as const, 'b' as const),
        }),
        { minLength: 1, maxLength: 8 },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'cycle' as const }) },
);

const model: fc.Arbitrary<UsageModel> = fc.oneof(
  fc.constant<UsageModel>({ model: 'PER_UNIT', unit_amount_decimal: '0.35' }),
  fc.constant<UsageModel>({ model: 'PACKAGE', package_size: 10, package_amount: 99 }),
  fc.constant<UsageModel>({
    model: 'GRADUATED',
    tiers: [
      { up_to: 5, unit_amount_decimal: '0', flat_amount: 0 },
      { up_to: 50, unit_amount_decimal: '12.5', flat_amount: 30 },
      { up_to: null, unit_amount_decimal: '3.333', flat_amount: 0 },
    ],
  }),
  fc.constant<UsageModel>({
    model: 'VOLUME',
    tiers: [
      { up_to: 20, unit_amount_decimal: '7', flat_amount: 0 },
      { up_to: null, unit_amount_decimal: '4.5', flat_amount: 11 },
    ],
  }),
);

/** Aggregations a late event can only raise: their period line and adjustments must add up to the price of the final quantity. */
const GROWS: readonly Aggregation[] = ['COUNT', 'SUM', 'MAX', 'UNIQUE_COUNT'];

async function run(aggregation: Aggregation, usageModel: UsageModel, changeAt: number, steps: Step[]): Promise<void> {
  const n = ++sequence;
  const db = database.db;
  const customerId = `cust_property_${n}`;
  const subscriptionId = `subs_property_${n}`;
  const priceId = `price_property_${n}`;
  const now = new Date(T0);
  await db.customer.create({
    data: { id: customerId, accountId, channelId: 'chn_property', type: 'INDIVIDUAL', email: `c${n}@example.com`, tax: {}, status: 'ACTIVE', createdAt: now, updatedAt: now },
  });
  // Version 2 changes the definition mid-stream: what counts, and what a SUM or MAX reads.
  const property = aggregation === 'COUNT' ? null : aggregation === 'UNIQUE_COUNT' ? 'user' : 'v';
  const meter: TestMeter = testMeter({
    accountId,
    meterId: `mtr_property_${n}`,
    eventName: `calls_${n}`,
    aggregation,
    createdAt: 0,
    versions: [
      { effectiveFrom: 0, property, filters: [{ property: 'kind', operator: 'IN', values: ['a'] }], groupBy: [] },
      { effectiveFrom: Math.floor(T0 + changeAt * PERIODS * DAY), property: property === 'v' ? 'w' : property, filters: [], groupBy: [] },
    ],
  });
  await insertMeter(db, meter);
  await db.productPrice.create({
    data: {
      id: priceId,
      accountId,
      productId: 'prod_usage_property',
      currency: 'EUR',
      amount: 0,
      billingType: 'USAGE',
      billingPeriodValue: 1,
      billingPeriodUnit: 'DAY',
      meterId: meter.meterId,
      usageModel: usageModel as never,
      createdAt: now,
      updatedAt: now,
    },
  });
  const state = {
    id: subscriptionId,
    accountId,
    customerId,
    lineItems: [{ billingType: 'USAGE', productPriceId: priceId, tax: null }],
  } as unknown as SubscriptionState;

  const accepted = new Map<string, TestEvent>();
  const billed = new Map<number, { quantity: bigint; amount: number }>();
  let clock = T0;
  let cycles = 0;
  const naive = (k: number) => {
    const { start, end } = periodOf(k);
    const usage = naiveUsage(meter, [...accepted.values()], { customerId, from: start, to: end, groupBy: false });
    return quantityOf(aggregation, usage.get(ALL_GROUPS) ?? emptyAggregate());
  };

  const cycleEnd = async () => {
    const k = cycles++;
    const period = periodOf(k);
    clock = Math.max(clock, period.end + GRACE);
    const planned: PlannedInvoice = { kind: 'cycle', key: `cycle/${k + 2}`, billingReason: 'SUBSCRIPTION_CYCLE', lines: [], usage: [{ productPriceId: priceId, productName: 'Calls', start: period.start, end: period.end, tax: null }] };
    const lines = await db.$transaction(async (tx) => {
      const made = await usageLinesOf(tx, state, planned, clock);
      await recordUsageBillings(tx, subscriptionId, `inv_property_${n}_${k}`, made.billings, new Date(clock));
      return made.lines;
    });
    for (const line of lines) {
      const usage = line.usage!;
      const j = Math.round((Date.parse(usage.period.start_at) - T0) / DAY);
      const quantity = parseDecimal(usage.quantity)!;
      expect({ period: j, kind: usage.kind, quantity: usage.quantity }).toEqual({ period: j, kind: usage.kind, quantity: formatDecimal(naive(j)) });
      if (usage.kind === 'PERIOD') {
        expect(j).toBe(k);
        billed.set(j, { quantity, amount: line.amount });
      } else {
        const before = billed.get(j)!;
        expect(usage.previously_billed!.quantity).toBe(formatDecimal(before.quantity));
        expect(quantity).not.toBe(before.quantity);
        billed.set(j, { quantity, amount: before.amount + line.amount });
      }
    }
    // Every period billed before and changed since came back, exactly once.
    for (const [j, before] of billed) expect({ period: j, quantity: formatDecimal(before.quantity) }).toEqual({ period: j, quantity: formatDecimal(naive(j)) });
  };

  for (const s of steps) {
    if (s.kind === 'cycle') {
      if (cycles < PERIODS) await cycleEnd();
      continue;
    }
    // Time moves on a little with every batch, never past the next cycle's end without it.
    clock = Math.min(clock + 7 * HOUR, periodOf(cycles).end + GRACE - 1);
    const events = s.events.map((e, index) => {
      const timestamp = Math.floor(T0 + e.offset * (clock - T0));
      const properties = { kind: e.kind, v: e.value, w: e.value * 2, user: `u${e.id % 4}` };
      return { index, eventId: `${n}:${e.id}`, eventName: meter.eventName, customerId, timestamp: new Date(timestamp).toISOString(), at: timestamp, properties, propertiesJson: JSON.stringify(properties) };
    });
    const outcomes = await ingestUsageEvents({ now: () => new Date(clock), lateEventDays: 35 }, db, { accountId, channels: null, keyChannels: null }, events);
    outcomes.forEach((outcome, i) => {
      const event = events[i]!;
      if (outcome.status === 'ACCEPTED') {
        expect(accepted.has(event.eventId)).toBe(false);
        accepted.set(event.eventId, { eventId: event.eventId, eventName: event.eventName, customerId, timestamp: event.at, properties: event.properties, receivedAt: clock });
      } else {
        expect({ id: event.eventId, outcome }).toEqual({ id: event.eventId, outcome: expect.objectContaining({ status: 'DUPLICATE' }) });
        expect(accepted.has(event.eventId) || events.findIndex((other) => other.eventId === event.eventId) < i).toBe(true);
      }
    });
  }
  // The last cycle ends after every batch: each late event has had an invoice to land on.
  while (cycles < PERIODS) await cycleEnd();
  await cycleEnd();
  for (const [j, total] of billed) {
    expect(formatDecimal(total.quantity)).toBe(formatDecimal(naive(j)));
    if (GROWS.includes(aggregation)) expect({ period: j, amount: total.amount }).toEqual({ period: j, amount: priceUsage(usageModel, naive(j)).amount });
  }
  const stored = await db.usageBilling.findMany({ where: { subscriptionId }, orderBy: { periodStart: 'asc' } });
  expect(stored.map((row) => [formatDecimal(parseDecimal(row.quantity.toFixed(12))!), Number(row.amount)])).toEqual(
    [...billed.entries()].sort(([a], [b]) => a - b).map(([, total]) => [formatDecimal(total.quantity), total.amount]),
  );
}

describe('usage billed equals usage accepted', () => {
  it(`over ${RUNS} random sequences of batches, late events, a meter change and cycle ends (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<Aggregation>('COUNT', 'SUM', 'MAX', 'UNIQUE_COUNT', 'LATEST'), model, fc.double({ min: 0, max: 1, noNaN: true }), fc.array(step, { minLength: 1, maxLength: 9 }), run),
      { numRuns: RUNS, seed: SEED },
    );
  }, 600_000);
});

describe('the late window counts from when a period was last measured', () => {
  it('an event stamped in a period two invoices back, accepted late, still lands on the next invoice', async () => {
    const db = database.db;
    const n = ++sequence;
    const customerId = `cust_window_${n}`;
    const priceId = `price_window_${n}`;
    const created = new Date(Date.UTC(2026, 10, 1));
    await db.customer.create({ data: { id: customerId, accountId, channelId: 'chn_property', type: 'INDIVIDUAL', email: `w${n}@example.com`, tax: {}, status: 'ACTIVE', createdAt: created, updatedAt: created } });
    const meter = testMeter({ accountId, meterId: `mtr_window_${n}`, eventName: `window_${n}`, aggregation: 'COUNT', createdAt: 0, versions: [{ effectiveFrom: 0, property: null, filters: [], groupBy: [] }] });
    await insertMeter(db, meter);
    const model: UsageModel = { model: 'PER_UNIT', unit_amount_decimal: '10' };
    await db.productPrice.create({
      data: { id: priceId, accountId, productId: 'prod_usage_property', currency: 'EUR', amount: 0, billingType: 'USAGE', billingPeriodValue: 1, billingPeriodUnit: 'MONTH', meterId: meter.meterId, usageModel: model as never, createdAt: created, updatedAt: created },
    });
    const state = { id: `subs_window_${n}`, accountId, customerId, lineItems: [{ billingType: 'USAGE', productPriceId: priceId, tax: null }] } as unknown as SubscriptionState;
    const [dec, jan, feb, mar] = [Date.UTC(2026, 11, 1), Date.UTC(2027, 0, 1), Date.UTC(2027, 1, 1), Date.UTC(2027, 2, 1)];
    const send = async (now: number, timestamp: number, id: string) => {
      const properties = {};
      const outcomes = await ingestUsageEvents({ now: () => new Date(now), lateEventDays: 35 }, db, { accountId, channels: null, keyChannels: null }, [
        { index: 0, eventId: `${n}:${id}`, eventName: meter.eventName, customerId, timestamp: new Date(timestamp).toISOString(), at: timestamp, properties, propertiesJson: '{}' },
      ]);
      expect(outcomes).toEqual([{ status: 'ACCEPTED' }]);
    };
    const invoice = async (issuedAt: number, start: number, end: number) =>
      db.$transaction(async (tx) => {
        const planned: PlannedInvoice = { kind: 'cycle', key: `cycle/${issuedAt}`, billingReason: 'SUBSCRIPTION_CYCLE', lines: [], usage: [{ productPriceId: priceId, productName: 'Calls', start, end, tax: null }] };
        const made = await usageLinesOf(tx, state, planned, issuedAt);
        await recordUsageBillings(tx, state.id, `inv_window_${n}_${issuedAt}`, made.billings, new Date(issuedAt));
        return made.lines.map((line) => [line.usage!.kind, line.usage!.period.start_at.slice(0, 10), line.usage!.quantity, line.amount]);
      });
    await send(dec + HOUR, dec + HOUR, 'a');
    expect(await invoice(jan + HOUR, dec, jan)).toEqual([['PERIOD', '2026-12-01', '1', 10]]);
    expect(await invoice(feb + HOUR, jan, feb)).toEqual([['PERIOD', '2027-01-01', '0', 0]]);
    // Stamped on 31 December, accepted on 3 February (34 days later): December was last measured on 1 February.
    await send(feb + 2 * 24 * HOUR, jan - HOUR, 'late');
    expect(await invoice(mar + HOUR, feb, mar)).toEqual([
      ['ADJUSTMENT', '2026-12-01', '2', 10],
      ['PERIOD', '2027-02-01', '0', 0],
    ]);
  });
});
