import type { Subscription } from '../api/types';

/** When the current period ends, which a cancellation at period end waits for; undefined when open-ended. */
export function periodEnd(subscription: Subscription): string | undefined {
  return subscription.next_billing_at ?? subscription.line_items.find((line) => line.billing_type !== 'ONE_TIME')?.period.end_at;
}
