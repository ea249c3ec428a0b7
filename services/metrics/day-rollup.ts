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
  return {
    wholeDays: `unnest(${dayFrom}::date[], ${dayTo}::date[], ${dayCurrent}::bool[]) AS s(day_from, day_to, is_current)`,
    edges: `unnest(${edgeFrom}::timestamptz[], ${edgeTo}::timestamptz[], ${edgeCurrent}::bool[]) AS e(at_from, at_to, is_current)`,
  };
}

export function paymentsByDay(currency: string, first: number): string {
  const { wholeDays, edges } = sources(first);
  return `
  SELECT s.is_current, d.day, d.status, d.decline_code, d.payment_count AS count, d.amount
  FROM ${wholeDays} JOIN metrics_payment_days d ON d.account_id = $1 AND d.currency = ${currency} AND d.day >= s.day_from AND d.day < s.day_to
  UNION ALL
  SELECT s.is_current, c.day, c.status, c.decline_code, c.payment_count, c.amount
  FROM ${wholeDays} JOIN metrics_payment_day_changes c ON c.account_id = $1 AND c.currency = ${currency} AND c.day >= s.day_from AND c.day < s.day_to
  UNION ALL
  SELECT e.is_current, (p.created_at AT TIME ZONE 'UTC')::date, p.status, COALESCE(p.decline_code, ''), 1, p.amount
  FROM ${edges} JOIN payments p ON p.account_id = $1 AND p.currency = ${currency} AND p.created_at >= e.at_from AND p.created_at < e.at_to`;
}

/** As paymentsByDay; a refund is in its payment's currency. */
export function refundsByDay(currency: string, first: number): string {
  const { wholeDays, edges } = sources(first);
  return `
  SELECT s.is_current, d.day, d.status, d.refund_count AS count, d.amount
  FROM ${wholeDays} JOIN metrics_refund_days d ON d.account_id = $1 AND d.currency = ${currency} AND d.day >= s.day_from AND d.day < s.day_to
  UNION ALL
  SELECT s.is_current, c.day, c.status, c.refund_count, c.amount
  FROM ${wholeDays} JOIN metrics_refund_day_changes c ON c.account_id = $1 AND c.currency = ${currency} AND c.day >= s.day_from AND c.day < s.day_to
  UNION ALL
  SELECT e.is_current, (r.created_at AT TIME ZONE 'UTC')::date, r.status, 1, r.amount
  FROM ${edges} JOIN refunds r ON r.account_id = $1 AND r.created_at >= e.at_from AND r.created_at < e.at_to
       JOIN payments p ON p.id = r.payment_id AND p.currency = ${currency}`;
}

/** The six values of paymentsByDay's and refundsByDay's spans, for `current` and, when given, the `previous` period. */
export function spanValues(current: Period, previous?: Period): unknown[] {
  const dayFrom: string[] = [];
  const dayTo: string[] = [];
  const dayCurrent: boolean[] = [];
  const edgeFrom: Date[] = [];
  const edgeTo: Date[] = [];
  const edgeCurrent: boolean[] = [];
  for (const [period, isCurrent] of [[current, true], ...(previous ? [[previous, false]] : [])] as [Period, boolean][]) {
    const { days, edges } = wholeDaysOf(period);
    if (days) {
      dayFrom.push(days.from);
      dayTo.push(days.to);
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
