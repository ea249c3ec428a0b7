/** Minor units → `12.34 EUR`, with the currency's own number of decimals. */
export function money(amount: number | undefined, currency: string | undefined): string {
  if (amount === undefined || currency === undefined) return '—';
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // An unknown code keeps two decimals.
  }
  return `${(amount / 10 ** digits).toFixed(digits)} ${currency}`;
}

/** The API's UTC date-time, shown in UTC so every reader sees the same instant. */
export function dateTime(value: string | undefined | null): string {
  if (!value) return '—';
  return value.replace('T', ' ').replace(/\.\d+Z$/, ' UTC').replace(/Z$/, ' UTC');
}

/** `in 9 s`, `in 3 min`, or `ended` for a moment in the past. */
export function timeLeft(until: string, now: number): string {
  const seconds = Math.round((Date.parse(until) - now) / 1000);
  if (seconds <= 0) return 'ended';
  if (seconds < 120) return `${seconds} s left`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min left`;
  if (seconds < 172800) return `${Math.round(seconds / 3600)} h left`;
  return `${Math.round(seconds / 86400)} days left`;
}
