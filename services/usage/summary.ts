import { isPeriodic, type BillingType } from '../../domain/billing-types';
import type { TimeUnit } from '../../domain/billing-periods';
import { ApiError } from '../../domain/errors';
import { emptyAggregate, mergeAggregate, quantityOf } from '../../domain/usage/aggregate';
import { scaleInteger } from '../../domain/usage/decimal';
import { groupLabels } from '../../domain/usage/group-labels';
import { linePeriods, type PeriodicLine } from '../../domain/usage/line-periods';
import type { Aggregation } from '../../domain/usage/meters';
import { HOUR_MS, type Range } from '../../domain/usage/span-parts';
import type { Database } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';
import { visibleCustomer } from '../customers/rules';
import type { Scope } from '../scope';
import { allActiveMetersOf, meterWithVersions, type MeterWithVersions } from './meter-definitions';
import { aggregateOfRollups, rollupAggregateColumns, type RollupAggregateRow } from './rollup-columns';
import { ALL_GROUPS, usageOver } from './usage-over';

/**
 * usage/summary (docs/usage.md, "Reading usage"): a customer's usage per meter in buckets of an
 * hour, a UTC day, or a billing period of one of its subscriptions, with the meter's groups.
 */
export const USAGE_WINDOWS = ['HOUR', 'DAY', 'PERIOD'] as const;
export type UsageWindow = (typeof USAGE_WINDOWS)[number];

/** Buckets per meter at most: a month of hours. */
export const MAX_SUMMARY_BUCKETS = 744;

const DAY_MS = 24 * HOUR_MS;
const WIDTH: Record<Exclude<UsageWindow, 'PERIOD'>, number> = { HOUR: HOUR_MS, DAY: DAY_MS };
/** The span answered when the request names neither end. */
const DEFAULT_SPAN: Record<Exclude<UsageWindow, 'PERIOD'>, number> = { HOUR: DAY_MS, DAY: 30 * DAY_MS };

export interface SummaryRequest {
  customerId: string;
  /** Default: every ACTIVE meter of the account. */
  meterId?: string;
  window: UsageWindow;
  /** Epoch ms. */
  from?: number;
  to?: number;
  /** Required for PERIOD. */
  subscriptionId?: string;
  groupBy: boolean;
}

export interface SummaryGroup {
  group: Record<string, string | null>;
  /** Scaled decimal. */
  quantity: bigint;
}

export interface SummaryBucket extends Range {
  quantity: bigint;
  /** With group-by only: the groups with usage in the bucket. */
  groups?: SummaryGroup[];
}

export interface MeterSummary {
  meterId: string;
  aggregation: Aggregation;
  buckets: SummaryBucket[];
}

function tooLarge(window: UsageWindow, buckets: number): ApiError {
  return new ApiError('USAGE_WINDOW_TOO_LARGE', `A ${window} summary answers at most ${MAX_SUMMARY_BUCKETS} buckets per meter; this one has ${buckets}. Narrow \`from\` and \`to\`.`, {
    window,
    buckets,
    max_buckets: MAX_SUMMARY_BUCKETS,
  });
}

export async function usageSummary(db: Database, scope: Scope, request: SummaryRequest, now: number): Promise<MeterSummary[]> {
  const customer = await visibleCustomer(db, scope, request.customerId);
  const meters = await metersOf(db, scope.accountId, request.meterId);
  if (request.window === 'PERIOD') return periodSummary(db, scope, customer.id, meters, request);
  return windowSummary(db, customer.id, meters, request, now);
}

async function metersOf(db: Database, accountId: string, meterId: string | undefined): Promise<MeterWithVersions[]> {
  if (meterId === undefined) return allActiveMetersOf(db, accountId);
  const meter = await meterWithVersions(db, accountId, meterId);
  if (!meter) throw new ApiError('METER_NOT_FOUND', `Meter ${meterId} is not a meter of this account.`, { meter_id: meterId });
  return [meter];
}

/**
 * The span a window's buckets may cover: section 1 date-times run from year 0001 to 9999, and a
 * bucket's end must be one of them too.
 */
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00Z');
const LAST_INSTANT = Date.parse('9999-12-31T00:00:00Z');

const floorTo = (at: number, unit: number) => Math.floor(at / unit) * unit;
const ceilTo = (at: number, unit: number) => Math.ceil(at / unit) * unit;

/**
 * The HOUR or DAY buckets: whole UTC hours or days, `from` rounded down and `to` up to them.
 * An end left out is the other end ± the default span; both left out, the default span up to the
 * end of the current hour or day.
 */
export function windowRange(window: Exclude<UsageWindow, 'PERIOD'>, request: { from?: number; to?: number }, now: number): Range {
  const unit = WIDTH[window];
  const span = DEFAULT_SPAN[window];
  const to = request.to ?? (request.from !== undefined ? request.from + span : floorTo(now, unit) + unit);
  const from = request.from ?? to - span;
  return { from: floorTo(from, unit), to: ceilTo(to, unit) };
}

const bucketIndex = `floor(extract(epoch FROM bucket - $3::timestamptz) * 1000 / $5::int)::int`;

/**
 * The hour roll-ups of the window's meters (every bucket is whole hours), by meter and bucket,
 * and with group-by also by group: a group key of null is the bucket over all groups. The latest
 * event is read for the LATEST meters ($6) only.
 */
function windowRollupsText(groupBy: boolean): string {
  return `SELECT meter_id AS "meterId", "index", ${groupBy ? 'group_key' : 'NULL::text'} AS "groupKey", ${rollupAggregateColumns('meter_id = ANY($6::text[])')}
     FROM (SELECT meter_id, group_key, event_count, value_sum, value_max, latest_at, latest_event_id, latest_value, ${bucketIndex} AS "index"
             FROM usage_rollups
            WHERE meter_id = ANY($1::text[]) AND customer_id = $2 AND grain = 'h' AND bucket >= $3::timestamptz AND bucket < $4::timestamptz) r
    GROUP BY ${groupBy ? 'GROUPING SETS ((meter_id, "index", group_key), (meter_id, "index"))' : 'meter_id, "index"'}`;
}

/** UNIQUE_COUNT meters' distinct values, counted the same ways. */
function windowDistinctCountsText(groupBy: boolean): string {
  return `SELECT meter_id AS "meterId", "index", ${groupBy ? 'group_key' : 'NULL::text'} AS "groupKey", count(DISTINCT value)::int AS "distinct"
     FROM (SELECT meter_id, group_key, value, ${bucketIndex} AS "index"
             FROM usage_distinct_values
            WHERE meter_id = ANY($1::text[]) AND customer_id = $2 AND bucket >= $3::timestamptz AND bucket < $4::timestamptz) v
    GROUP BY ${groupBy ? 'GROUPING SETS ((meter_id, "index", group_key), (meter_id, "index"))' : 'meter_id, "index"'}`;
}

const windowStatements = {
  rollups: { grouped: sqlStatement('usage.summary_window_rollups_grouped', windowRollupsText(true)), total: sqlStatement('usage.summary_window_rollups', windowRollupsText(false)) },
  distinct: {
    grouped: sqlStatement('usage.summary_window_distinct_grouped', windowDistinctCountsText(true)),
    total: sqlStatement('usage.summary_window_distinct', windowDistinctCountsText(false)),
  },
};

interface WindowRollupRow extends RollupAggregateRow {
  meterId: string;
  index: number;
  groupKey: string | null;
}

interface DistinctCountRow {
  meterId: string;
  index: number;
  groupKey: string | null;
  distinct: number;
}

/** A bucket's quantity and its groups' (by group key), however they were counted. */
interface BucketQuantities {
  total: bigint;
  groups: Map<string, bigint>;
}

async function windowSummary(db: Database, customerId: string, meters: MeterWithVersions[], request: SummaryRequest, now: number): Promise<MeterSummary[]> {
  const window = request.window as Exclude<UsageWindow, 'PERIOD'>;
  const unit = WIDTH[window];
  const range = windowRange(window, request, now);
  if (range.from < FIRST_INSTANT || range.to > LAST_INSTANT) {
    // Rounded out to whole hours or days, or stretched by the default span, past what a date-time can say.
    throw ApiError.validation({ [request.from !== undefined && range.from < FIRST_INSTANT ? 'from' : 'to']: { type: 'INVALID', message: 'The window must lie within the years 0001 to 9999.' } });
  }
  const count = (range.to - range.from) / unit;
  if (count > MAX_SUMMARY_BUCKETS) throw tooLarge(window, count);
  const unique = meters.filter((meter) => meter.aggregation === 'UNIQUE_COUNT').map((meter) => meter.meterId);
  const others = meters.filter((meter) => meter.aggregation !== 'UNIQUE_COUNT').map((meter) => meter.meterId);
  const latestOnes = meters.filter((meter) => meter.aggregation === 'LATEST').map((meter) => meter.meterId);
  const bounds = [customerId, new Date(range.from).toISOString(), new Date(range.to).toISOString(), unit];
  const grouping = request.groupBy ? 'grouped' : 'total';
  const [rollupRows, distinctRows] = await Promise.all([
    others.length > 0 ? readRows<WindowRollupRow>(db, windowStatements.rollups[grouping], [others, ...bounds, latestOnes]) : [],
    unique.length > 0 ? readRows<DistinctCountRow>(db, windowStatements.distinct[grouping], [unique, ...bounds]) : [],
  ]);

  const quantities = new Map<string, BucketQuantities>();
  const place = (meterId: string, index: number, groupKey: string | null, quantity: bigint) => {
    const key = `${meterId} ${index}`;
    let bucket = quantities.get(key);
    if (!bucket) quantities.set(key, (bucket = { total: 0n, groups: new Map() }));
    if (groupKey === null) bucket.total = quantity;
    else bucket.groups.set(groupKey, quantity);
  };
  const aggregations = new Map(meters.map((meter) => [meter.meterId, meter.aggregation]));
  for (const row of rollupRows) place(row.meterId, row.index, row.groupKey, quantityOf(aggregations.get(row.meterId)!, aggregateOfRollups(row)));
  // A UNIQUE_COUNT quantity is the size of the set of distinct values (quantityOf), counted by the database.
  for (const row of distinctRows) place(row.meterId, row.index, row.groupKey, scaleInteger(row.distinct));

  return meters.map((meter) => {
    const labels = labeller(meter);
    return {
      meterId: meter.meterId,
      aggregation: meter.aggregation,
      buckets: Array.from({ length: count }, (_, index) => {
        const start = range.from + index * unit;
        const bucket = quantities.get(`${meter.meterId} ${index}`);
        return summaryBucket(labels, { from: start, to: start + unit }, bucket?.total ?? 0n, bucket?.groups ?? new Map(), request.groupBy);
      }),
    };
  });
}

/**
 * A meter's group labels: of a meter with one version, a key's labels are the same in every
 * bucket, so they are made once per answer (a month of hours repeats each key 744 times).
 */
function labeller(meter: MeterWithVersions): (groupKey: string, range: Range) => Record<string, string | null> {
  if (meter.versions.length > 1) return (groupKey, range) => groupLabels(meter.versions, groupKey, range.from, range.to);
  const made = new Map<string, Record<string, string | null>>();
  return (groupKey, range) => {
    let labels = made.get(groupKey);
    if (!labels) made.set(groupKey, (labels = groupLabels(meter.versions, groupKey, range.from, range.to)));
    return labels;
  };
}

function summaryBucket(labels: ReturnType<typeof labeller>, range: Range, total: bigint, groups: Map<string, bigint>, groupBy: boolean): SummaryBucket {
  if (!groupBy) return { ...range, quantity: total };
  return {
    ...range,
    quantity: total,
    groups: [...groups.keys()].sort().map((groupKey) => ({ group: labels(groupKey, range), quantity: groups.get(groupKey)! })),
  };
}

/** The subscription's lines that tell its billing periods, oldest position first, with the meter a USAGE line's price measures. */
const subscriptionLines = sqlStatement(
  'usage.summary_subscription_lines',
  `SELECT s.channel_id AS "channelId", s.anchor_at AS "anchorAt",
          coalesce(json_agg(json_build_object(
            'billingType', l.billing_type, 'meterId', p.meter_id, 'startedAt', l.started_at, 'periodStartAt', l.period_start_at,
            'periodEndAt', l.period_end_at, 'value', l.billing_period_value, 'unit', l.billing_period_unit) ORDER BY l.position)
            FILTER (WHERE l.billing_period_value IS NOT NULL), '[]') AS "lines"
     FROM subscriptions s
     LEFT JOIN subscription_line_items l ON l.subscription_id = s.id
     LEFT JOIN product_prices p ON p.id = l.product_price_id
    WHERE s.id = $1 AND s.account_id = $2 AND s.customer_id = $3
    GROUP BY s.id`,
);

interface SubscriptionLinesRow {
  channelId: string;
  anchorAt: Date | null;
  lines: Array<{ billingType: BillingType; meterId: string | null; startedAt: string | null; periodStartAt: string; periodEndAt: string | null; value: number; unit: TimeUnit }>;
}

async function periodSummary(db: Database, scope: Scope, customerId: string, meters: MeterWithVersions[], request: SummaryRequest): Promise<MeterSummary[]> {
  const subscriptionId = request.subscriptionId!;
  const [subscription] = await readRows<SubscriptionLinesRow>(db, subscriptionLines, [subscriptionId, scope.accountId, customerId]);
  if (!subscription || (scope.channels !== null && !scope.channels.includes(subscription.channelId))) {
    throw new ApiError('SUBSCRIPTION_NOT_FOUND', `Subscription ${subscriptionId} is not a subscription of customer ${customerId}.`, { subscription_id: subscriptionId });
  }
  const lines = subscription.lines.filter((line) => isPeriodic(line.billingType));
  const plans = meters.map((meter) => {
    // The periods of the usage line that bills this meter; else of any usage line, else of the subscription's cycle.
    const line = lines.find((l) => l.billingType === 'USAGE' && l.meterId === meter.meterId) ?? lines.find((l) => l.billingType === 'USAGE') ?? lines[0];
    if (!line) return { meter, periods: [] };
    const periodic: PeriodicLine = {
      startedAt: line.startedAt === null ? null : Date.parse(line.startedAt),
      periodStartAt: Date.parse(line.periodStartAt),
      periodEndAt: line.periodEndAt === null ? null : Date.parse(line.periodEndAt),
      billingPeriod: { value: line.value, unit: line.unit },
    };
    const { count, periods } = linePeriods(periodic, subscription.anchorAt?.getTime() ?? periodic.periodStartAt, request, MAX_SUMMARY_BUCKETS);
    if (count > MAX_SUMMARY_BUCKETS) throw tooLarge('PERIOD', count);
    return { meter, periods };
  });
  // Up to 744 periods of every meter: read a few at a time, so one answer cannot take the pool.
  const answers = [];
  for (const { meter, periods } of plans) {
    const buckets = [];
    for (let first = 0; first < periods.length; first += PERIODS_AT_ONCE) {
      buckets.push(
        ...(await Promise.all(
          periods.slice(first, first + PERIODS_AT_ONCE).map(async (period) => {
            const usage = await usageOver(db, { accountId: scope.accountId, meter, customerId, from: period.from, to: period.to, groupBy: request.groupBy });
            const total = [...usage.values()].reduce(mergeAggregate, emptyAggregate());
            const groups = new Map([...usage].filter(([key]) => key !== ALL_GROUPS).map(([key, aggregate]) => [key, quantityOf(meter.aggregation, aggregate)]));
            return summaryBucket(labeller(meter), period, quantityOf(meter.aggregation, total), groups, request.groupBy);
          }),
        )),
      );
    }
    answers.push({ meterId: meter.meterId, aggregation: meter.aggregation, buckets });
  }
  return answers;
}

/** PERIOD buckets read side by side: each is up to three statements. */
const PERIODS_AT_ONCE = 4;

