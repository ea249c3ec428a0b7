import { useQueries, useQuery } from '@tanstack/react-query';
import type { Meter, ProductPrice, Subscription, UsageSummary } from '../api/types';
import { v2 } from '../api/v2';
import { ErrorMessage } from './ErrorMessage';
import { dateTime } from './format';
import type { UsagePoint } from './usagePoint';
import { UsageFigure } from './UsageFigure';

type Bucket = UsageSummary['meters'][number]['buckets'][number];
type SubscriptionLine = Subscription['line_items'][number];

const day = (value: string) => value.slice(5, 10);

function pointOf(bucket: Bucket, label: string): UsagePoint {
  return { label, span: `${dateTime(bucket.start)} to ${dateTime(bucket.end)}`, quantity: bucket.quantity, value: Number(bucket.quantity) };
}

function summaryQuery(customerId: string, body: Record<string, unknown>) {
  return {
    queryKey: ['customers', customerId, 'usage', body],
    queryFn: () => v2<UsageSummary>('/v2/usage/summary', { customer_id: customerId, ...body }),
  };
}

function useMeter(meterId: string) {
  return useQuery({ queryKey: ['meters', meterId], queryFn: () => v2<Meter>('/v2/meters/get', { id: meterId }) });
}

const ADDS_UP: Record<Meter['aggregation'], boolean> = { COUNT: true, SUM: true, MAX: false, UNIQUE_COUNT: false, LATEST: false };

function AggregationHint({ meter }: { meter: Meter }) {
  return (
    <p className="hint">
      {ADDS_UP[meter.aggregation]
        ? 'Each bar is what the meter measured in its span; the bars add up to the period.'
        : 'Each bar is the meter’s quantity over its own span alone: for this aggregation the days do not add up to the period.'}
    </p>
  );
}

/**
 * One meter a subscription bills: its current period day by day (UTC days; the first and last
 * may be partial), and every period from the first to the current one, as the invoices measure them.
 */
function SubscriptionMeterUsage({ customerId, subscription, line, meterId }: { customerId: string; subscription: Subscription; line: SubscriptionLine; meterId: string }) {
  const meter = useMeter(meterId);
  const period = line.period;
  const current = useQuery(summaryQuery(customerId, { meter_id: meterId, window: 'DAY', from: period.start_at, ...(period.end_at ? { to: period.end_at } : {}) }));
  const past = useQuery(summaryQuery(customerId, { meter_id: meterId, window: 'PERIOD', subscription_id: subscription.id }));
  const name = meter.data?.name ?? meterId;
  const id = `usage-${subscription.id}-${meterId}`;
  const days = current.data?.meters[0]?.buckets ?? [];
  const periods = past.data?.meters[0]?.buckets ?? [];
  return (
    <section aria-labelledby={id}>
      <h3 id={id}>
        {name} ({meter.data ? meter.data.aggregation : '…'}), subscription {subscription.id}
      </h3>
      <ErrorMessage error={meter.error ?? current.error ?? past.error} />
      {meter.data ? <AggregationHint meter={meter.data} /> : null}
      {current.data ? (
        <UsageFigure
          id={`${id}-current`}
          title={`${name}: current period, ${dateTime(period.start_at)} to ${dateTime(period.end_at)}, by day`}
          points={days.map((bucket) => pointOf(bucket, day(bucket.start)))}
        />
      ) : null}
      {past.data ? (
        <UsageFigure
          id={`${id}-periods`}
          title={`${name}: every billing period of subscription ${subscription.id}`}
          points={periods.map((bucket) => pointOf(bucket, bucket.start === period.start_at ? `${day(bucket.start)} (current)` : `${day(bucket.start)} to ${day(bucket.end)}`))}
        />
      ) : null}
    </section>
  );
}

/** A customer billed for no usage: the last 30 days of every ACTIVE meter that measured something for them. */
function RecentUsage({ customerId }: { customerId: string }) {
  const summary = useQuery(summaryQuery(customerId, { window: 'DAY' }));
  const measured = (summary.data?.meters ?? []).filter((meter) => meter.buckets.some((bucket) => Number(bucket.quantity) !== 0));
  const meters = useQueries({ queries: measured.map((meter) => ({ queryKey: ['meters', meter.meter_id], queryFn: () => v2<Meter>('/v2/meters/get', { id: meter.meter_id }) })) });
  if (summary.error) return <ErrorMessage error={summary.error} />;
  if (!summary.data) return <p role="status">Loading usage…</p>;
  if (measured.length === 0) return <p>No subscription bills usage, and no meter measured any in the last 30 days.</p>;
  return (
    <>
      <p>No subscription bills usage; the last 30 days of the meters that measured some:</p>
      {measured.map((usage, index) => {
        const name = meters[index]?.data?.name ?? usage.meter_id;
        return (
          <UsageFigure
            key={usage.meter_id}
            id={`usage-recent-${usage.meter_id}`}
            title={`${name}: the last 30 days, by day`}
            points={usage.buckets.map((bucket) => pointOf(bucket, day(bucket.start)))}
          />
        );
      })}
    </>
  );
}

/**
 * The usage part of the customer page: one chart pair per meter a live subscription's USAGE
 * price bills (the meter is the price's), read from usage/summary.
 */
export function CustomerUsage({ customerId, subscriptions }: { customerId: string; subscriptions: Subscription[] }) {
  const lines = subscriptions.flatMap((subscription) => subscription.line_items.filter((line) => line.billing_type === 'USAGE').map((line) => ({ subscription, line })));
  const prices = useQueries({
    queries: lines.map(({ line }) => ({
      queryKey: ['product-prices', line.product_price_id],
      queryFn: () => v2<ProductPrice>('/v2/product-prices/get', { id: line.product_price_id }),
      staleTime: Infinity,
    })),
  });
  if (lines.length === 0) return <RecentUsage customerId={customerId} />;
  const failed = prices.find((price) => price.error);
  if (failed) return <ErrorMessage error={failed.error} />;
  if (prices.some((price) => !price.data)) return <p role="status">Loading usage…</p>;
  const seen = new Set<string>();
  return (
    <>
      {lines.map(({ subscription, line }, index) => {
        const meterId = prices[index]!.data!.meter_id;
        const key = `${subscription.id}/${meterId}`;
        if (!meterId || seen.has(key)) return null;
        seen.add(key);
        return <SubscriptionMeterUsage key={key} customerId={customerId} subscription={subscription} line={line} meterId={meterId} />;
      })}
    </>
  );
}
