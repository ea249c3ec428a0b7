import { formatDateTime } from '../../domain/datetime';
import { parseDecimal } from '../../domain/usage/decimal';
import { priceUsage, type UsageModel } from '../../domain/usage/pricing';
import type { Database } from '../../prisma/client';
import type { apiClient } from './api-client';

/**
 * bench:renewals' usage variant (`BENCH_USAGE=1`, docs/benchmarks.md): every subscription also
 * carries a USAGE line of one COUNT meter, priced GRADUATED, created through the API; events are
 * ingested through usage-events/ingest in batches of 1,000 between the subscriptions' first cycle
 * and the instant, so the renewal measures a real quantity for its usage line in arrears beside
 * the fixed line ahead; afterwards every renewal invoice is checked against what was sent.
 */
type Call = ReturnType<typeof apiClient>;

const EVENT_NAME = 'bench.api_call';
const BATCH = 1000;
const INGEST_CONCURRENCY = 4;
/** The first 5 events free, then 3 minor units each and a flat 20: every line goes through both tiers. */
const MODEL: UsageModel = {
  model: 'GRADUATED',
  tiers: [
    { up_to: 5, unit_amount_decimal: '0', flat_amount: 0 },
    { up_to: null, unit_amount_decimal: '3', flat_amount: 20 },
  ],
};
/** The usage grace of 0: the renewal falls at the instant, as the ceiling's does. */
export const USAGE_SETTINGS = { usage_grace_minutes: 0 };

/** 5 to 15 events, so quantities differ from one subscription to the next (about 10 on average). */
export function eventsOf(index: number): number {
  return 5 + (index % 11);
}

export interface UsagePrices {
  meterId: string;
  /** The USAGE price of each billing period the bench uses, by unit. */
  priceIds: Record<'HOUR' | 'MONTH', string>;
}

/** One meter and a USAGE price of it per billing period, through the API. */
export async function createUsagePrices(call: Call): Promise<UsagePrices> {
  const meter = await call('meters/create', { name: 'Bench API calls', event_name: EVENT_NAME, aggregation: 'COUNT' });
  const product = await call('products/create', { name: 'Bench API calls' });
  const price = async (unit: 'HOUR' | 'MONTH') =>
    (
      await call('product-prices/create', {
        product_id: product.id,
        currency: 'EUR',
        billing_type: 'USAGE',
        billing_period_config: { value: 1, unit },
        meter_id: meter.id,
        usage_model: MODEL,
      })
    ).id as string;
  return { meterId: meter.id, priceIds: { HOUR: await price('HOUR'), MONTH: await price('MONTH') } };
}

/**
 * The usage of the subscriptions with `reference`, sent through usage-events/ingest: `eventsOf(i)`
 * events for the i-th customer of `customerIds`, spread evenly over its usage line's period from
 * its start to `until` (before the instant and not ahead of now). Every event must be ACCEPTED.
 */
export async function ingestUsage(
  call: Call,
  db: Database,
  reference: string,
  customerIds: string[],
  until: number,
): Promise<{ events: number; perSecond: number }> {
  const starts = await usagePeriodStarts(db, reference);
  const events: { event_id: string; event_name: string; customer_id: string; timestamp: string; properties: Record<string, never> }[] = [];
  customerIds.forEach((customerId, i) => {
    const start = starts.get(customerId);
    if (start === undefined) throw new Error(`customer ${customerId} has no ${reference} subscription with a usage line`);
    if (start >= until) throw new Error(`the usage period of ${customerId} starts at ${new Date(start).toISOString()}, after the events' end`);
    const count = eventsOf(i);
    for (let k = 0; k < count; k++) {
      const at = start + Math.floor(((k + 0.5) * (until - start)) / count);
      events.push({ event_id: `${reference}-${i}-${k}`, event_name: EVENT_NAME, customer_id: customerId, timestamp: formatDateTime(new Date(at)), properties: {} });
    }
  });
  const started = Date.now();
  let next = 0;
  const lane = async () => {
    while (next < events.length) {
      const batch = events.slice(next, (next += BATCH));
      const answer = await call('usage-events/ingest', { events: batch });
      if (answer.accepted !== batch.length) {
        const refused = answer.results.find((result: { status: string }) => result.status !== 'ACCEPTED');
        throw new Error(`usage-events/ingest accepted ${answer.accepted} of ${batch.length}: ${JSON.stringify(refused)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: INGEST_CONCURRENCY }, lane));
  return { events: events.length, perSecond: events.length / ((Date.now() - started) / 1000) };
}

/** When each customer's usage line of a `reference` subscription started its period (its first cycle), epoch ms. */
async function usagePeriodStarts(db: Database, reference: string): Promise<Map<string, number>> {
  const rows = await db.$queryRaw<{ customerId: string; start: Date }[]>`
    SELECT s.customer_id AS "customerId", l.period_start_at AS "start"
      FROM subscriptions s JOIN subscription_line_items l ON l.subscription_id = s.id AND l.billing_type = 'USAGE'
     WHERE s.merchant_reference = ${reference}`;
  return new Map(rows.map((row) => [row.customerId, row.start.getTime()]));
}

export interface UsageCheck {
  /** Renewal invoices (SUBSCRIPTION_CYCLE) of the subscriptions. */
  invoices: number;
  /** Of those, the ones whose usage lines are not exactly one PERIOD line to the instant with the events sent and their price. */
  mismatches: number;
  /** Their total of usage lines' quantities, against the events sent. */
  quantity: number;
}

/** Every renewal invoice of the `reference` subscriptions against the events sent to its customer, from the database. */
export async function checkUsageLines(db: Database, reference: string, customerIds: string[], instant: number): Promise<UsageCheck> {
  const rows = await db.$queryRaw<{ customerId: string; lines: { amount: number; usage: { kind: string; quantity: string; period: { end_at: string } } }[] }[]>`
    SELECT i.customer_id AS "customerId",
           coalesce(json_agg(json_build_object('amount', li.amount, 'usage', li.usage)) FILTER (WHERE li.usage IS NOT NULL), '[]') AS "lines"
      FROM invoices i
      JOIN subscriptions s ON s.id = i.subscription_id AND s.merchant_reference = ${reference}
      LEFT JOIN invoice_line_items li ON li.invoice_id = i.id
     WHERE i.billing_reason = 'SUBSCRIPTION_CYCLE'
     GROUP BY i.id, i.customer_id`;
  const sent = new Map(customerIds.map((customerId, i) => [customerId, eventsOf(i)]));
  const endAt = formatDateTime(new Date(instant));
  let mismatches = Math.max(0, customerIds.length - rows.length);
  let quantity = 0;
  const seen = new Set<string>();
  for (const row of rows) {
    // A second renewal invoice of one customer is a mismatch too: the sent events are billed once.
    const expected = seen.has(row.customerId) ? undefined : sent.get(row.customerId);
    seen.add(row.customerId);
    const [line, ...others] = row.lines;
    if (line) quantity += Number(line.usage.quantity);
    const right =
      expected !== undefined &&
      line !== undefined &&
      others.length === 0 &&
      line.usage.kind === 'PERIOD' &&
      line.usage.period.end_at === endAt &&
      line.usage.quantity === String(expected) &&
      line.amount === priceUsage(MODEL, parseDecimal(String(expected))!).amount;
    if (!right) mismatches++;
  }
  return { invoices: rows.length, mismatches, quantity };
}
