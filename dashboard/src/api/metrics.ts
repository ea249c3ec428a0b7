import { v2 } from './v2';

/** The API's half-open `[from, to)`, as its date-times (docs/metrics.md, "Request"). */
export interface Period {
  from: string;
  to: string;
}

/** The metrics operations' answers (docs/metrics.md); amounts in the currency's minor units. */
export type CurrencySource = 'REQUEST' | 'MAIN_CURRENCY' | 'DEFAULT';

export interface Compared<T> {
  current: T;
  previous: T;
}

export interface CreditNoteSplit {
  total: number;
  pre_payment: number;
  refund: number;
  balance_credit: number;
  out_of_band: number;
}

export interface PaymentOutcomes {
  failed: number;
  succeeded: number;
  /** `0.0500`: four places, or null when no payment ended either way. */
  rate: string | null;
}

export interface Overview {
  currency: string;
  currency_source: CurrencySource;
  period: Period;
  previous_period: Period;
  as_of: string;
  gross_volume: Compared<number>;
  refunds: Compared<number>;
  credit_notes: Compared<CreditNoteSplit>;
  net_revenue: Compared<number>;
  mrr: Compared<number>;
  arr: Compared<number>;
  subscriptions: { new: Compared<number>; churned: Compared<number>; reactivated: Compared<number> };
  dunning: { invoice_count: number; amount_due: number };
  failed_payments: Compared<PaymentOutcomes>;
  top_decline_codes: { decline_code: string; count: number }[];
}

export interface DailyRevenue {
  currency: string;
  period: Period;
  days: { date: string; collected: number; refunded: number }[];
}

export interface MrrHistory {
  currency: string;
  points: { month: string; at: string; mrr: number; arr: number }[];
}

export interface SubscriptionCounts {
  currency: string;
  as_of: string;
  counts: Record<string, number>;
}

/** No currency: the API picks the account's main one and says so. */
const currencyField = (currency: string | undefined) => (currency ? { currency } : {});

export const getOverview = (period: Period, currency?: string) => v2<Overview>('/v2/metrics/get-overview', { period, ...currencyField(currency) });

export const getDailyRevenue = (period: Period, currency?: string) =>
  v2<DailyRevenue>('/v2/metrics/get-daily-revenue', { period, ...currencyField(currency) });

export const getMrrHistory = (currency?: string) => v2<MrrHistory>('/v2/metrics/get-mrr-history', currencyField(currency));

export const getSubscriptionCounts = (currency?: string) => v2<SubscriptionCounts>('/v2/metrics/get-subscription-counts', currencyField(currency));
