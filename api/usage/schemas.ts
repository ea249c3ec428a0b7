import { z } from 'zod';
import { formatDateTime } from '../../domain/datetime';
import { formatDecimal } from '../../domain/usage/decimal';
import { AGGREGATIONS } from '../../domain/usage/meters';
import { MAX_SUMMARY_BUCKETS, USAGE_WINDOWS, type MeterSummary, type SummaryBucket, type UsageWindow } from '../../services/usage/summary';
import { channelIdField, dateTime } from '../common/schemas';
import { customerId } from '../customers/schemas';
import { meterId } from '../meters/schemas';
import { subscriptionId } from '../subscriptions/schemas';

export const usageWindow = z.enum(USAGE_WINDOWS);

/** A request's date-time as epoch ms, its microseconds kept as a fraction: `to` one microsecond past an hour reaches into the next. */
export function instantOf(value: string): number {
  const micros = /\.\d{3}(\d{1,3})Z$/.exec(value)?.[1] ?? '';
  return Date.parse(value) + Number(micros.padEnd(3, '0')) / 1000;
}

const decimal = (description: string) => z.string().meta({ description: `Decimal string, exact: ${description}` });

export const usageSummaryRequest = z
  .strictObject({
    customer_id: customerId,
    channel_id: channelIdField,
    meter_id: meterId.optional().meta({ description: 'Left out: every ACTIVE meter of the account.' }),
    window: usageWindow.meta({
      description: 'HOUR and DAY: whole UTC hours or days. PERIOD: the billing periods of `subscription_id` from its first to the current one.',
    }),
    from: dateTime.optional().meta({
      description: `HOUR and DAY: rounded down to the hour or day; left out, \`to\` minus 24 hours (HOUR) or 30 days (DAY). PERIOD: periods that end after it.`,
    }),
    to: dateTime.optional().meta({
      description: `HOUR and DAY: rounded up to the hour or day; left out, \`from\` plus that span, or the end of the current hour or day. PERIOD: periods that start before it. At most ${MAX_SUMMARY_BUCKETS} buckets per meter.`,
    }),
    subscription_id: subscriptionId.optional().meta({ description: 'PERIOD only, and required there: a subscription of the customer.' }),
    group_by: z.boolean().optional().meta({ description: 'Each bucket also lists its groups by the meter’s group-by paths. Default false.' }),
  })
  .superRefine((request, ctx) => {
    const issue = (path: string, type: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message, params: { type } });
    if (request.window === 'PERIOD' && request.subscription_id === undefined) issue('subscription_id', 'REQUIRED', 'Required for the PERIOD window.');
    if (request.window !== 'PERIOD' && request.subscription_id !== undefined) issue('subscription_id', 'INVALID', 'Only for the PERIOD window.');
    if (request.from !== undefined && request.to !== undefined && instantOf(request.to) <= instantOf(request.from)) issue('to', 'INVALID', 'Must be later than `from`.');
  })
  .meta({
    oneOf: [
      { properties: { window: { const: 'PERIOD' } }, required: ['subscription_id'] },
      { properties: { window: { enum: ['HOUR', 'DAY'] } }, not: { required: ['subscription_id'] } },
    ],
  });

export type UsageSummaryRequest = z.infer<typeof usageSummaryRequest>;

const usageGroup = z
  .object({
    group: z.record(z.string(), z.string().nullable()).meta({ description: 'Each group-by path with the value the events had (null: none, or not a string, number or boolean).' }),
    quantity: decimal('the group’s quantity in the bucket.'),
  })
  .meta({ id: 'UsageGroup' });

const usageBucket = z
  .object({
    start: dateTime,
    end: dateTime.meta({ description: 'Exclusive.' }),
    quantity: decimal('the meter’s aggregation over the events timestamped in [start, end).'),
    groups: z.array(usageGroup).optional().meta({ description: 'With `group_by` only: the groups with usage in the bucket.' }),
  })
  .meta({ id: 'UsageBucket' });

export const usageSummaryObject = z
  .object({
    customer_id: z.string(),
    window: usageWindow,
    meters: z.array(
      z
        .object({
          meter_id: z.string(),
          aggregation: z.enum(AGGREGATIONS),
          buckets: z.array(usageBucket).meta({ description: 'Oldest first, every bucket of the window, empty ones too.' }),
        })
        .meta({ id: 'MeterUsage' }),
    ),
  })
  .meta({ id: 'UsageSummary' });

export type UsageSummaryObject = z.infer<typeof usageSummaryObject>;

function serializeBucket(bucket: SummaryBucket) {
  return {
    start: formatDateTime(new Date(bucket.from)),
    end: formatDateTime(new Date(bucket.to)),
    quantity: formatDecimal(bucket.quantity),
    ...(bucket.groups ? { groups: bucket.groups.map((group) => ({ group: group.group, quantity: formatDecimal(group.quantity) })) } : {}),
  };
}

export function serializeUsageSummary(customer: string, window: UsageWindow, meters: MeterSummary[]): UsageSummaryObject {
  return {
    customer_id: customer,
    window,
    meters: meters.map((meter) => ({ meter_id: meter.meterId, aggregation: meter.aggregation, buckets: meter.buckets.map(serializeBucket) })),
  };
}
