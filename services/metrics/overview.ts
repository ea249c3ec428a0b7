import { annualFromMonthly } from '../../domain/metrics/mrr';
import { currentMonth, periodEndSoFar, previousPeriod, type Period } from '../../domain/metrics/periods';
import { divideHalfUp } from '../../domain/rounding';
import type { Database } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';
import { paymentsByDay, refundsByDay, spanValues } from './day-rollup';
import { figuresCurrency, type CurrencySource } from './main-currency';
import { mrrAt } from './mrr';

/** A figure of the period beside the same figure of the previous one. */
export interface Pair<T> {
  current: T;
  previous: T;
}

export interface CreditNoteFigures {
  total: number;
  prePayment: number;
  refund: number;
  balanceCredit: number;
  outOfBand: number;
}

export interface FailedPayments {
  failed: number;
  succeeded: number;
  /** failed ÷ (failed + succeeded), four places, half up; null without either. */
  rate: string | null;
}

export interface Overview {
  currency: { currency: string; source: CurrencySource };
  period: Period;
  previousPeriod: Period;
  grossVolume: Pair<number>;
  refunds: Pair<number>;
  creditNotes: Pair<CreditNoteFigures>;
  netRevenue: Pair<number>;
  mrr: Pair<number>;
  arr: Pair<number>;
  subscriptions: { new: Pair<number>; churned: Pair<number>; reactivated: Pair<number> };
  dunning: { invoiceCount: number; amountDue: number };
  failedPayments: Pair<FailedPayments>;
  topDeclineCodes: { declineCode: string; count: number }[];
}

// Each statement reads both periods at once. The payments' and refunds' ($3–$8: spanValues()) come
// from the daily roll-up, so a year costs about what a month does; the others read their rows:
// $3 previous from, $4 from (the previous period's end), $5 to.
const payments = sqlStatement(
  'metrics.overview_payments',
  `WITH counted AS (${paymentsByDay('$2', 3)})
   SELECT COALESCE(sum(amount) FILTER (WHERE status = 'SUCCEEDED' AND is_current), 0)::text AS gross_current,
          COALESCE(sum(amount) FILTER (WHERE status = 'SUCCEEDED' AND NOT is_current), 0)::text AS gross_previous,
          COALESCE(sum(count) FILTER (WHERE status IN ('DECLINED', 'FAILED') AND is_current), 0)::text AS failed_current,
          COALESCE(sum(count) FILTER (WHERE status IN ('DECLINED', 'FAILED') AND NOT is_current), 0)::text AS failed_previous,
          COALESCE(sum(count) FILTER (WHERE status = 'SUCCEEDED' AND is_current), 0)::text AS succeeded_current,
          COALESCE(sum(count) FILTER (WHERE status = 'SUCCEEDED' AND NOT is_current), 0)::text AS succeeded_previous,
          (SELECT COALESCE(json_agg(json_build_object('decline_code', decline_code, 'count', n) ORDER BY n DESC, decline_code), '[]')
           FROM (SELECT decline_code, sum(count)::int AS n FROM counted
                 WHERE is_current AND status IN ('DECLINED', 'FAILED') AND decline_code <> ''
                 GROUP BY decline_code HAVING sum(count) > 0 ORDER BY n DESC, decline_code LIMIT 5) AS codes) AS top_decline_codes
   FROM counted`,
  { planEachCall: true },
);

const refunds = sqlStatement(
  'metrics.overview_refunds',
  `SELECT COALESCE(sum(amount) FILTER (WHERE is_current), 0)::text AS current,
          COALESCE(sum(amount) FILTER (WHERE NOT is_current), 0)::text AS previous
   FROM (${refundsByDay('$2', 3)}) AS counted WHERE status = 'SUCCEEDED'`,
  { planEachCall: true },
);

const creditNotes = sqlStatement(
  'metrics.overview_credit_notes',
  `SELECT COALESCE(sum(total_amount) FILTER (WHERE created_at >= $4), 0)::text AS total_current,
          COALESCE(sum(total_amount) FILTER (WHERE created_at < $4), 0)::text AS total_previous,
          COALESCE(sum(pre_payment_amount) FILTER (WHERE created_at >= $4), 0)::text AS pre_payment_current,
          COALESCE(sum(pre_payment_amount) FILTER (WHERE created_at < $4), 0)::text AS pre_payment_previous,
          COALESCE(sum(refund_amount) FILTER (WHERE created_at >= $4), 0)::text AS refund_current,
          COALESCE(sum(refund_amount) FILTER (WHERE created_at < $4), 0)::text AS refund_previous,
          COALESCE(sum(balance_credit_amount) FILTER (WHERE created_at >= $4), 0)::text AS balance_credit_current,
          COALESCE(sum(balance_credit_amount) FILTER (WHERE created_at < $4), 0)::text AS balance_credit_previous,
          COALESCE(sum(out_of_band_amount) FILTER (WHERE created_at >= $4), 0)::text AS out_of_band_current,
          COALESCE(sum(out_of_band_amount) FILTER (WHERE created_at < $4), 0)::text AS out_of_band_previous
   FROM credit_notes WHERE account_id = $1 AND currency = $2 AND status = 'ISSUED' AND created_at >= $3 AND created_at < $5`,
);

// A subscription is new in the period it first became ACTIVE: its first_active_at, read from the index alone.
const newSubscriptions = sqlStatement(
  'metrics.overview_new_subscriptions',
  `SELECT count(*) FILTER (WHERE first_active_at >= $4)::int AS new_current,
          count(*) FILTER (WHERE first_active_at < $4)::int AS new_previous
   FROM subscriptions WHERE account_id = $1 AND currency = $2 AND first_active_at >= $3 AND first_active_at < $5`,
);

// The account's changes of both periods into CANCELLED or EXPIRED, or back into ACTIVE from UNPAID
// or CANCELLED, read from the index alone; each joined to its subscription for its currency and
// whether it had been ACTIVE before: coming from ACTIVE it had, and so had it when it first became
// ACTIVE earlier. A first ACTIVE at the change's very instant may be after it: its history says.
// The LIMIT keeps the join one probe per change (20 ms at 4,096 changes in bench:metrics): the
// planner, expecting a sixth of them, hashed all the account's subscriptions instead (40 ms).
const churnedAndReactivated = sqlStatement(
  'metrics.overview_churned_reactivated',
  `WITH moves AS (
     SELECT c.subscription_id, c.occurred_at >= $4 AS is_current, c.to_status IN ('CANCELLED', 'EXPIRED') AS is_churn
     FROM subscription_status_changes c
          CROSS JOIN LATERAL (SELECT currency, first_active_at FROM subscriptions WHERE id = c.subscription_id LIMIT 1) s
     WHERE c.account_id = $1 AND c.occurred_at >= $3 AND c.occurred_at < $5
       AND (c.to_status IN ('CANCELLED', 'EXPIRED') OR (c.to_status = 'ACTIVE' AND c.from_status IN ('UNPAID', 'CANCELLED')))
       AND s.currency = $2
       AND (c.from_status = 'ACTIVE' OR s.first_active_at < c.occurred_at
            OR (s.first_active_at = c.occurred_at AND EXISTS (SELECT 1 FROM subscription_status_changes e
                  WHERE e.subscription_id = c.subscription_id AND e.to_status = 'ACTIVE' AND e.version < c.version)))
   )
   SELECT count(DISTINCT subscription_id) FILTER (WHERE is_churn AND is_current)::int AS churned_current,
          count(DISTINCT subscription_id) FILTER (WHERE is_churn AND NOT is_current)::int AS churned_previous,
          count(DISTINCT subscription_id) FILTER (WHERE NOT is_churn AND is_current)::int AS reactivated_current,
          count(DISTINCT subscription_id) FILTER (WHERE NOT is_churn AND NOT is_current)::int AS reactivated_previous
   FROM moves`,
);

const dunning = sqlStatement(
  'metrics.overview_dunning',
  `SELECT count(*)::int AS invoice_count, COALESCE(sum(amount_due), 0)::text AS amount_due
   FROM invoices WHERE account_id = $1 AND status = 'DUNNING' AND currency = $2`,
);

function failureRate(failed: number, succeeded: number): FailedPayments {
  const attempts = failed + succeeded;
  if (attempts === 0) return { failed, succeeded, rate: null };
  const tenThousandths = divideHalfUp(BigInt(failed) * 10_000n, BigInt(attempts));
  return { failed, succeeded, rate: `${tenThousandths / 10_000n}.${String(tenThousandths % 10_000n).padStart(4, '0')}` };
}

function creditNoteFigures(sums: Record<string, string>, key: 'current' | 'previous'): CreditNoteFigures {
  const of = (name: string) => Number(sums[`${name}_${key}`]);
  return { total: of('total'), prePayment: of('pre_payment'), refund: of('refund'), balanceCredit: of('balance_credit'), outOfBand: of('out_of_band') };
}

/** The overview's figures of `period` and of the period before it (docs/metrics.md, "metrics/get-overview"). */
export async function readOverview(db: Database, accountId: string, request: { currency?: string; period?: Period }, now: number): Promise<Overview> {
  const resolved = await figuresCurrency(db, accountId, request.currency, now);
  const { currency } = resolved;
  const period = request.period ?? currentMonth(now);
  const previous = previousPeriod(period);
  const range = [accountId, currency, new Date(previous.from), new Date(period.from), new Date(period.to)];
  const spans = [accountId, currency, ...spanValues(period, previous)];
  const [[pay], [refund], [notes], [won], [moves], [due], [mrrPrevious, mrrCurrent]] = await Promise.all([
    readRows<Record<string, string> & { top_decline_codes: { decline_code: string; count: number }[] }>(db, payments, spans),
    readRows<{ current: string; previous: string }>(db, refunds, spans),
    readRows<Record<string, string>>(db, creditNotes, range),
    readRows<Record<string, number>>(db, newSubscriptions, range),
    readRows<Record<string, number>>(db, churnedAndReactivated, range),
    readRows<{ invoice_count: number; amount_due: string }>(db, dunning, [accountId, currency]),
    mrrAt(db, accountId, currency, [periodEndSoFar(previous, now), periodEndSoFar(period, now)], now),
  ]);
  const creditNotesPair = { current: creditNoteFigures(notes!, 'current'), previous: creditNoteFigures(notes!, 'previous') };
  const grossVolume = { current: Number(pay!.gross_current), previous: Number(pay!.gross_previous) };
  const refundsPair = { current: Number(refund!.current), previous: Number(refund!.previous) };
  // A balance credit is no money paid back: once spent, the invoice it pays collects that much
  // less, so gross volume is already lower by it (subtracting it here would count it twice).
  const net = (key: 'current' | 'previous') => grossVolume[key] - refundsPair[key] - creditNotesPair[key].outOfBand;
  return {
    currency: resolved,
    period,
    previousPeriod: previous,
    grossVolume,
    refunds: refundsPair,
    creditNotes: creditNotesPair,
    netRevenue: { current: net('current'), previous: net('previous') },
    mrr: { current: mrrCurrent!, previous: mrrPrevious! },
    arr: { current: annualFromMonthly(mrrCurrent!), previous: annualFromMonthly(mrrPrevious!) },
    subscriptions: {
      new: { current: won!.new_current!, previous: won!.new_previous! },
      churned: { current: moves!.churned_current!, previous: moves!.churned_previous! },
      reactivated: { current: moves!.reactivated_current!, previous: moves!.reactivated_previous! },
    },
    dunning: { invoiceCount: due!.invoice_count, amountDue: Number(due!.amount_due) },
    failedPayments: {
      current: failureRate(Number(pay!.failed_current), Number(pay!.succeeded_current)),
      previous: failureRate(Number(pay!.failed_previous), Number(pay!.succeeded_previous)),
    },
    topDeclineCodes: pay!.top_decline_codes.map((row) => ({ declineCode: row.decline_code, count: row.count })),
  };
}
