import type { PortalSettings } from './settings';

/** A change of one subscription line the customer asks for in the portal. */
export interface PortalLineChange {
  quantity?: number;
  productPriceId?: string;
}

/**
 * The setting that forbids this change, or null when the account allows it: a quantity needs
 * `quantity_changes`; a new price needs both the line's price and the new one among
 * `switchable_price_ids` (a line on a price the merchant did not list stays where it is).
 */
export function forbiddenLineChange(settings: PortalSettings, currentPriceId: string, change: PortalLineChange): keyof PortalSettings | null {
  if (change.quantity !== undefined && !settings.quantity_changes) return 'quantity_changes';
  if (change.productPriceId !== undefined && change.productPriceId !== currentPriceId) {
    const listed = new Set(settings.switchable_price_ids);
    if (!listed.has(currentPriceId) || !listed.has(change.productPriceId)) return 'switchable_price_ids';
  }
  return null;
}

/**
 * A customer may undo only a cancellation a customer asked for: one the merchant scheduled for
 * fraud, a dispute or an exhausted dunning is the merchant's to take back.
 */
export function customerMayUndoCancellation(reason: string | undefined): boolean {
  return reason === 'CANCELLATION_REQUESTED';
}

/** Subscriptions that still charge: not CANCELLED or EXPIRED. */
export const LIVE_SUBSCRIPTION_STATUSES = ['CREATED', 'PENDING', 'TRIALING', 'ACTIVE', 'REDEMPTION', 'UNPAID'] as const;

/**
 * The subscriptions that need each instrument: those that name it, and, for the customer's
 * default, those that name none (collection falls back to the default: services/payments/collect.ts).
 */
export function instrumentsInUse(
  subscriptions: readonly { id: string; paymentInstrumentId: string | null }[],
  defaultInstrumentId: string | undefined,
): Map<string, string[]> {
  const needs = new Map<string, string[]>();
  for (const subscription of subscriptions) {
    const instrumentId = subscription.paymentInstrumentId ?? defaultInstrumentId;
    if (!instrumentId) continue;
    needs.set(instrumentId, [...(needs.get(instrumentId) ?? []), subscription.id]);
  }
  return needs;
}
