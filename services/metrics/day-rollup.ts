import { wholeDaysOf, type Period } from '../../domain/metrics/periods';

/**
 * The payments and refunds of periods as the daily roll-up gives them (docs/metrics.md, "Daily
 * roll-up"): the whole UTC days from metrics_*_days plus the changes the roll-up workflow has not
 * folded in yet, the partial days at the periods' ends from the rows themselves. Each source row
 * carries its period's `is_current`, its day, its group and its count and amount, so a figure
 * filters and sums them as it would the raw rows, whatever the period's length.
 *
 * `currency` is the SQL of the currency (a parameter, or a column of an outer query); `$1` is the
 * account and six parameters from `$first` on are spanValues(): the whole days (from, to, is
 * current), then the edges (from, to, is current).
 */
function sources(first: number) {
  const [dayFrom, dayTo, dayCurrent, edgeFrom, edgeTo, edgeCurrent] = [0, 1, 2, 3, 4, 5].map((offset) => `$${first + offset}`);
  // Day bounds go in as instants (node-postgres writes any year, BC ones included) and become
  // UTC dates here. The aliases are the fragment's own, so `currency` may name an outer column.
  return {
    wholeDays: `unnest(${dayFrom}::timestamptz[], ${dayTo}::timestamptz[], ${dayCurrent}::bool[]) AS rollup_span(starts, ends, is_current)`,
    from: `(rollup_span.starts AT TIME ZONE 'UTC')::date`,
    to: `(rollup_span.ends AT TIME ZONE 'UTC')::date`,
    edges: `unnest(${edgeFrom}::timestamptz[], ${edgeTo}::timestamptz[], ${edgeCurrent}::bool[]) AS rollup_edge(starts, ends, is_current)`,
  };
}

export function paymentsByDay(currency: string, first: number): string {
  const { wholeDays, from, to, edges } = sources(first);
  return `
  SELECT rollup_span.is_current, rollup_day.day, rollup_day.status, rollup_day.decline_code, rollup_day.payment_count AS count, rollup_day.amount
  FROM ${wholeDays} JOIN metrics_payment_days rollup_day
    ON rollup_day.account_id = $1 AND rollup_day.currency = ${currency} AND rollup_day.day >= ${from} AND rollup_day.day < ${to}
  UNION ALL
  SELECT rollup_span.is_current, rollup_change.day, rollup_change.status, rollup_change.decline_code, rollup_change.payment_count, rollup_change.amount
  FROM ${wholeDays} JOIN metrics_payment_day_changes rollup_change
    ON rollup_change.account_id = $1 AND rollup_change.currency = ${currency} AND rollup_change.day >= ${from} AND rollup_change.day < ${to}
  UNION ALL
  SELECT rollup_edge.is_current, (raw_payment.created_at AT TIME ZONE 'UTC')::date, raw_payment.status, COALESCE(raw_payment.decline_code, ''), 1, raw_payment.amount
  FROM ${edges} JOIN payments raw_payment
    ON raw_payment.account_id = $1 AND raw_payment.currency = ${currency} AND raw_payment.created_at >= rollup_edge.starts AND raw_payment.created_at < rollup_edge.ends`;
}

/** As paymentsByDay; a refund is in its payment's currency. */
export function refundsByDay(currency: string, first: number): string {
  const { wholeDays, from, to, edges } = sources(first);
  return `
  SELECT rollup_span.is_current, rollup_day.day, rollup_day.status, rollup_day.refund_count AS count, rollup_day.amount
  FROM ${wholeDays} JOIN metrics_refund_days rollup_day
    ON rollup_day.account_id = $1 AND rollup_day.currency = ${currency} AND rollup_day.day >= ${from} AND rollup_day.day < ${to}
  UNION ALL
  SELECT rollup_span.is_current, rollup_change.day, rollup_change.status, rollup_change.refund_count, rollup_change.amount
  FROM ${wholeDays} JOIN metrics_refund_day_changes rollup_change
    ON rollup_change.account_id = $1 AND rollup_change.currency = ${currency} AND rollup_change.day >= ${from} AND rollup_change.day < ${to}
  UNION ALL
  SELECT rollup_edge.is_current, (raw_refund.created_at AT TIME ZONE 'UTC')::date, raw_refund.status, 1, raw_refund.amount
  FROM ${edges} JOIN refunds raw_refund
    ON raw_refund.account_id = $1 AND raw_refund.created_at >= rollup_edge.starts AND raw_refund.created_at < rollup_edge.ends
  JOIN payments refund_payment ON refund_payment.id = raw_refund.payment_id AND refund_payment.currency = ${currency}`;
}

/** The six values of paymentsByDay's and refundsByDay's spans, for `current` and, when given, the `previous` period. */
export function spanValues(current: Period, previous?: Period): unknown[] {
  const dayFrom: Date[] = [];
  const dayTo: Date[] = [];
  const dayCurrent: boolean[] = [];
  const edgeFrom: Date[] = [];
  const edgeTo: Date[] = [];
  const edgeCurrent: boolean[] = [];
  for (const [period, isCurrent] of [[current, true], ...(previous ? [[previous, false]] : [])] as [Period, boolean][]) {
    const { days, edges } = wholeDaysOf(period);
    if (days) {
      dayFrom.push(new Date(days.from));
      dayTo.push(new Date(days.to));
      dayCurrent.push(isCurrent);
    }
    for (const edge of edges) {
      edgeFrom.push(new Date(edge.from));
      edgeTo.push(new Date(edge.to));
      edgeCurrent.push(isCurrent);
    }
  }
  return [dayFrom, dayTo, dayCurrent, edgeFrom, edgeTo, edgeCurrent];
}
