import type { DailyRevenue, MrrHistory, SubscriptionCounts } from '../../api/metrics';
import { CURRENCY_EXPONENTS, isCurrencyCode } from '../../../../domain/currencies';
import { money } from '../format';

/** One bar or point of an Overview chart: its axis label, the number drawn and its exact text. */
export interface ChartPoint {
  label: string;
  value: number;
  text: string;
}

/** Minor units → the currency's units, for drawing only: the tables and tooltips show `money`'s exact text. */
function drawn(amount: number, currency: string): number {
  return amount / 10 ** (isCurrencyCode(currency) ? CURRENCY_EXPONENTS[currency] : 2);
}

export function dailyRevenuePoints(answer: DailyRevenue): ChartPoint[] {
  return answer.days.map((day) => ({ label: day.date, value: drawn(day.collected, answer.currency), text: money(day.collected, answer.currency) }));
}

export function mrrPoints(answer: MrrHistory): ChartPoint[] {
  return answer.points.map((point) => ({ label: point.month, value: drawn(point.mrr, answer.currency), text: money(point.mrr, answer.currency) }));
}

/** `ACTIVE` → `Active`: a status in words on the axis and in the table. */
const statusWords = (status: string) => status.charAt(0) + status.slice(1).toLowerCase().replace(/_/g, ' ');

export function statusPoints(answer: SubscriptionCounts): ChartPoint[] {
  return Object.entries(answer.counts).map(([status, count]) => ({ label: statusWords(status), value: count, text: String(count) }));
}
