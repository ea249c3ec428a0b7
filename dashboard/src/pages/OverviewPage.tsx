import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { getDailyRevenue, getMrrHistory, getOverview, getSubscriptionCounts, type Overview } from '../api/metrics';
import { ErrorMessage } from '../components/ErrorMessage';
import { dateTime } from '../components/format';
import { ChartFigure } from '../components/overview/ChartFigure';
import { dailyRevenuePoints, mrrPoints, statusPoints } from '../components/overview/chartPoint';
import { OverviewFigures } from '../components/overview/OverviewFigures';
import { OverviewFilters, type OverviewFilterValues } from '../components/overview/OverviewFilters';
import { periodOf, periodWords } from '../components/overview/periods';
import { PageHeading } from '../components/PageHeading';
import '../components/overview/overview.css';

const SOURCES: Record<Overview['currency_source'], string> = {
  REQUEST: 'as chosen',
  MAIN_CURRENCY: 'the account’s main currency, the one most collected in the last 90 days',
  DEFAULT: 'nothing was collected in the last 90 days',
};

/**
 * The dashboard's home page (issue 44): how the business is doing in a period and currency,
 * computed by the metrics operations (docs/metrics.md), with charts of collected revenue per day,
 * MRR over 12 months and subscriptions by status.
 */
export function OverviewPage() {
  const [filters, setFilters] = useState<OverviewFilterValues>({ choice: 'THIS_MONTH', custom: { from: '', to: '' }, currency: '' });
  const period = periodOf(filters.choice, Date.now(), filters.custom);
  const requested = filters.currency || undefined;
  const overview = useQuery({
    queryKey: ['metrics', 'overview', period, requested],
    queryFn: () => getOverview(period!, requested),
    enabled: period !== undefined,
  });
  // The charts ask for the currency the overview settled on, so every figure is in the same one.
  const currency = overview.data?.currency;
  const daily = useQuery({
    queryKey: ['metrics', 'daily-revenue', period, currency],
    queryFn: () => getDailyRevenue(period!, currency),
    enabled: period !== undefined && currency !== undefined,
  });
  const mrr = useQuery({ queryKey: ['metrics', 'mrr-history', currency], queryFn: () => getMrrHistory(currency), enabled: currency !== undefined });
  const counts = useQuery({
    queryKey: ['metrics', 'subscription-counts', currency],
    queryFn: () => getSubscriptionCounts(currency),
    enabled: currency !== undefined,
  });

  return (
    <>
      <PageHeading title="Overview">Overview</PageHeading>
      <OverviewFilters values={filters} onChange={setFilters} />
      {period === undefined ? <p role="status">Choose the first and the last day of the period, the last not before the first.</p> : null}
      <ErrorMessage error={overview.error} />
      {overview.isPending && period !== undefined ? <p role="status">Loading the figures…</p> : null}
      {overview.data ? (
        <>
          <p data-testid="overview-scope">
            {periodWords(overview.data.period)}, compared with {periodWords(overview.data.previous_period)}. Amounts in{' '}
            <strong data-testid="overview-currency">{overview.data.currency}</strong> ({SOURCES[overview.data.currency_source]}); read at{' '}
            {dateTime(overview.data.as_of)}.
          </p>
          <OverviewFigures overview={overview.data} />
          <section aria-labelledby="overview-charts">
            <h2 id="overview-charts">Charts</h2>
            <ErrorMessage error={daily.error ?? mrr.error ?? counts.error} />
            {daily.data ? (
              <ChartFigure
                id="daily-revenue"
                title={`Collected revenue per day, ${periodWords(daily.data.period)}`}
                kind="amount-bars"
                columns={['Day (UTC)', 'Collected']}
                points={dailyRevenuePoints(daily.data)}
                empty={daily.data.days.every((day) => day.collected === 0) ? 'No payment was collected in this period.' : undefined}
              />
            ) : null}
            {mrr.data ? (
              <ChartFigure
                id="mrr-history"
                title="MRR over the last 12 months (each month’s end, the current month now)"
                kind="line"
                columns={['Month', 'MRR']}
                points={mrrPoints(mrr.data)}
                empty={mrr.data.points.every((point) => point.mrr === 0) ? `No active subscription in ${mrr.data.currency} in the last 12 months.` : undefined}
              />
            ) : null}
            {counts.data ? (
              <ChartFigure
                id="subscription-counts"
                title="Subscriptions by status now"
                kind="count-bars"
                columns={['Status', 'Subscriptions']}
                points={statusPoints(counts.data)}
                empty={Object.values(counts.data.counts).every((count) => count === 0) ? `No subscription in ${counts.data.currency} yet.` : undefined}
              />
            ) : null}
          </section>
        </>
      ) : null}
    </>
  );
}
