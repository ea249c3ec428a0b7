import type { Subscription } from '../api/types';

/** A subscription named by its products, each once, in line order. */
export function productNames(subscription: Subscription): string {
  return [...new Set(subscription.line_items.map((line) => line.product_info.name))].join(', ');
}
