import type { Platform } from '../support/platform';
import { DAY, HOUR, MINUTE, useSubscriptionPlatform, waitFor, type SubscriptionSteps } from '../subscriptions/fixtures';
import { ingestUsageEvents } from '../../services/usage/ingest';
import { insertMeter, testMeter, type TestMeter } from './usage-fixtures';

/*
 * Usage lines on subscription invoices (docs/usage.md, "Subscriptions"), in the time-skipping
 * environment: a period's usage is invoiced in arrears after the grace, the preview taken then
 * is that invoice, late events of a billed period come back as an adjustment, and an ended
 * subscription invoices its last usage. Events are written as ingestion writes them
 * (usage-fixtures.ts), at timestamps of the test server's clock.
 */

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

let sequence = 0;

async function meter(aggregation: 'COUNT' | 'SUM', property: string | null = null): Promise<TestMeter> {
  const made = testMeter({
    accountId: platform.accountId,
    meterId: `mtr_${Date.now()}${sequence++}`.padEnd(30, '0'),
    eventName: `api_call_${sequence}`,
    aggregation,
    createdAt: 0,
    versions: [{ effectiveFrom: 0, property, filters: [], groupBy: [] }],
  });
  await insertMeter(platform.db, made);
  return made;
}

async function usagePrice(meterId: string, model: Record<string, unknown>, name = 'API calls'): Promise<string> {
  const product = await s.ok('products/create', { name });
  const price = await s.ok('product-prices/create', {
    product_id: product.id,
    currency: 'EUR',
    billing_type: 'USAGE',
    billing_period_config: { value: 1, unit: 'WEEK' },
    meter_id: meterId,
    usage_model: model,
  });
  return price.id;
}

/** Events through the ingestion service, on the test server's clock (the API's is the wall clock, days behind it). */
async function send(m: TestMeter, customerId: string, at: number[], value?: (index: number) => number): Promise<void> {
  const now = new Date(await s.now());
  const events = at.map((timestamp, index) => {
    const properties = value ? { units: value(index) } : {};
    return {
      index,
      eventId: `e-${sequence}-${timestamp}-${index}`,
      eventName: m.eventName,
      customerId,
      timestamp: new Date(timestamp).toISOString(),
      at: timestamp,
      properties,
      propertiesJson: JSON.stringify(properties),
    };
  });
  sequence++;
  const outcomes = await ingestUsageEvents({ now: () => now, lateEventDays: 35 }, platform.db, { accountId: platform.accountId, channels: null, keyChannels: null }, events);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(events.map(() => 'ACCEPTED'));
}

async function invoices(subscriptionId: string, count: number) {
  return waitFor(`${count} invoices of ${subscriptionId}`, async () => {
    const list = await s.invoices(subscriptionId);
    return list.length >= count ? list : undefined;
  }, 60_000);
}

async function invoiceObject(id: string) {
  return s.ok('invoices/get', { id });
}

function usageLines(invoice: { line_items: { id?: string; usage?: Record<string, any> }[] }) {
  return invoice.line_items.filter((line) => line.usage);
}

describe('usage lines on subscription invoices', () => {
  // First: once a subscription has issued its last usage invoice (the last test), the
  // time-skipping test server's sleep stopped returning for the tests after it in this file.
  it('previews usage too large for an invoice line as a 422, not a 500', async () => {
    const { customerId } = await s.payer();
    const calls = await meter('COUNT');
    const priceId = await usagePrice(calls.meterId, { model: 'PER_UNIT', unit_amount_decimal: '999999999' });
    const startsAt = await s.soon();
    const start = Date.parse(startsAt);
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1 }], starts_at: startsAt });
    await s.sleep(2 * MINUTE);
    await s.statusBecomes(created.id, 'ACTIVE');
    await send(calls, customerId, [start + MINUTE, start + MINUTE + 1, start + MINUTE + 2]);
    expect(await s.refused('invoices/preview', { subscription_id: created.id })).toMatchObject({
      status: 422,
      code: 'USAGE_CHARGE_TOO_LARGE',
      context: { amount_decimal: '2999999997', max_amount: 2_147_483_647 },
    });
  });

  it('bills a week of usage after the grace, as previewed at the week end, and a late event as an adjustment on the next invoice', async () => {
    const { customerId } = await s.payer();
    const calls = await meter('COUNT');
    const priceId = await usagePrice(calls.meterId, { model: 'PER_UNIT', unit_amount_decimal: '0.5' });
    const startsAt = await s.soon();
    const start = Date.parse(startsAt);
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1 }], starts_at: startsAt });
    await s.sleep(2 * MINUTE);
    await s.statusBecomes(created.id, 'ACTIVE');
    // Usage alone: the first invoice says usage is billed at the period's end, for nothing, and is paid at once.
    const [first] = await invoices(created.id, 1);
    expect(first!).toMatchObject({ status: 'PAID', totalAmount: 0 });

    // 7 calls in the week (one in its last millisecond), 1 a second after it ends (ahead of the
    // clock by less than the skew allowed): 7 × 0.5 = 3.5, rounded half up to 4.
    await s.sleep(7 * DAY - 4 * MINUTE);
    await send(calls, customerId, [start + HOUR, start + DAY, start + 2 * DAY + 1, start + 3 * DAY, start + 4 * DAY, start + 6 * DAY, start + 7 * DAY - 1]);
    await send(calls, customerId, [start + 7 * DAY + 1_000]);
    await s.sleep(2 * MINUTE);
    const previewed = (await s.ok('invoices/preview', { subscription_id: created.id })).next_invoice;
    expect(usageLines(previewed)).toEqual([
      expect.objectContaining({
        amount: 4,
        quantity: 1,
        usage: expect.objectContaining({ kind: 'PERIOD', meter_id: calls.meterId, quantity: '7', period: { start_at: expect.any(String), end_at: expect.any(String) } }),
      }),
    ]);
    // The grace: nothing is issued at the week's end, only an hour after it.
    await s.sleep(4 * MINUTE + 30 * MINUTE);
    expect(await s.invoices(created.id)).toHaveLength(1);
    await s.sleep(31 * MINUTE);
    const [, second] = await invoices(created.id, 2);
    const issued = await invoiceObject(second!.id);
    expect(usageLines(issued).map(({ id: _id, ...line }) => line)).toEqual(usageLines(previewed));
    expect(issued.total_amount).toBe(previewed.total_amount);
    expect(issued.line_items[0].usage.tiers).toEqual([expect.objectContaining({ quantity: '7', unit_amount_decimal: '0.5', amount_decimal: '3.5' })]);

    // Two late events of the first week: the next invoice bills the difference, 9 × 0.5 = 4.5 → 5, 1 more than billed.
    await send(calls, customerId, [start + 5 * DAY, start + 5 * DAY + 7]);
    await s.sleep(7 * DAY);
    const [, , third] = await invoices(created.id, 3);
    const next = await invoiceObject(third!.id);
    const [adjustment, period] = usageLines(next);
    expect(adjustment).toMatchObject({ amount: 1, usage: { kind: 'ADJUSTMENT', quantity: '9', previously_billed: { quantity: '7', amount: 4 } } });
    expect(adjustment!.usage!.period).toEqual(issued.line_items[0].usage.period);
    // The second week had the one call a second after the first ended.
    expect(period).toMatchObject({ amount: 1, usage: { kind: 'PERIOD', quantity: '1' } });
  });

  it('bills fixed lines in advance beside usage in arrears, graduated, and invoices the last usage after a cancellation at the period end', async () => {
    const { customerId } = await s.payer();
    const storage = await meter('SUM', 'units');
    const usagePriceId = await usagePrice(storage.meterId, {
      model: 'GRADUATED',
      tiers: [
        { up_to: 10, unit_amount_decimal: '0', flat_amount: 0 },
        { up_to: null, unit_amount_decimal: '25', flat_amount: 100 },
      ],
    }, 'Storage GB');
    const seat = await s.price(1_000, { value: 1, unit: 'WEEK' }, 'Seat');
    const startsAt = await s.soon();
    const start = Date.parse(startsAt);
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: seat, quantity: 2 }, { product_price_id: usagePriceId, quantity: 1 }],
      starts_at: startsAt,
      settings: { usage_grace_minutes: 10 },
    });
    await s.sleep(2 * MINUTE);
    await s.statusBecomes(created.id, 'ACTIVE');
    const [first] = await invoices(created.id, 1);
    expect(first!).toMatchObject({ status: 'PAID', totalAmount: 2_000 });
    expect(first!.lineItems).toHaveLength(1);

    // 12.5 units: 10 free, 2.5 × 25 = 62.5, plus the tier's 100 flat: 162.5 → 163.
    await s.sleep(3 * DAY);
    await send(storage, customerId, [start + DAY, start + 2 * DAY], (index) => [4, 8.5][index]!);
    await s.sleep(4 * DAY + 10 * MINUTE);
    const [, second] = await invoices(created.id, 2);
    const renewal = await invoiceObject(second!.id);
    expect(renewal.line_items.map((line: { amount: number; quantity: number; usage?: { kind: string; quantity: string } }) => [line.amount, line.quantity, line.usage?.quantity])).toEqual([
      [1_000, 2, undefined],
      [163, 1, '12.5'],
    ]);
    expect(renewal.total_amount).toBe(2_163);

    await s.ok('subscriptions/cancel', { id: created.id, mode: 'PERIOD_END', reason: 'CANCELLATION_REQUESTED' });
    await s.sleep(2 * DAY);
    await send(storage, customerId, [start + 8 * DAY], () => 11);
    // Past the end and its grace: 11 units, 10 free, 1 × 25 + 100 = 125, on one last invoice.
    await s.sleep(5 * DAY);
    await s.statusBecomes(created.id, 'CANCELLED');
    const all = await invoices(created.id, 3);
    expect(Date.parse(all[2]!.createdAt.toISOString())).toBeGreaterThanOrEqual(start + 14 * DAY + 10 * MINUTE);
    expect(all).toHaveLength(3);
    const last = await invoiceObject(all[2]!.id);
    expect(last.line_items).toEqual([expect.objectContaining({ amount: 125, usage: expect.objectContaining({ kind: 'PERIOD', quantity: '11' }) })]);
  });
});
