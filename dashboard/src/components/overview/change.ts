import { money } from '../format';

/** `+150.00 EUR`, `−20.00 EUR` or `No change`: the exact difference, in the currency's units. */
export function amountChange(current: number, previous: number, currency: string): string {
  const difference = current - previous;
  if (difference === 0) return 'No change';
  const text = `${difference > 0 ? '+' : '−'}${money(Math.abs(difference), currency)}`;
  return previous > 0 ? `${text} (${percent(difference, previous)})` : text;
}

/** `+3` or `−1` (and the share of the previous count), for counts of subscriptions. */
export function countChange(current: number, previous: number): string {
  const difference = current - previous;
  if (difference === 0) return 'No change';
  const text = `${difference > 0 ? '+' : '−'}${Math.abs(difference)}`;
  return previous > 0 ? `${text} (${percent(difference, previous)})` : text;
}

/** A ratio said as a share of the previous figure, one decimal: a hint, never an amount. */
function percent(difference: number, previous: number): string {
  const share = (Math.abs(difference) / previous) * 100;
  return `${difference > 0 ? '+' : '−'}${share.toFixed(1)} %`;
}

/** The API's `0.0500` → `5.00 %`; a period without finished payments has no rate. */
export function rateText(rate: string | null): string {
  return rate === null ? 'No payments' : `${(Number(rate) * 100).toFixed(2)} %`;
}

/** The difference of two rates in percentage points. */
export function rateChange(current: string | null, previous: string | null): string {
  if (current === null || previous === null) return 'Nothing to compare';
  const points = (Number(current) - Number(previous)) * 100;
  if (Math.abs(points) < 0.005) return 'No change';
  return `${points > 0 ? '+' : '−'}${Math.abs(points).toFixed(2)} percentage points`;
}
