import { collectionInstrumentOf } from '../collection-instrument';
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
 * A customer may undo only a cancellation they asked for in the portal (`requested_by: CUSTOMER`):
 * one the merchant scheduled, whatever its reason, is the merchant's to take back.
 */
export function customerMayUndoCancellation(cancellation: { requested_by?: string } | null | undefined): boolean {
  return cancellation?.requested_by === 'CUSTOMER';
}

/**
 * The subscriptions that need each card: each live subscription needs the card its collection
 * would charge (domain/collection-instrument.ts): its own while ACTIVE, else the customer's default.
 */
export function instrumentsInUse(
  subscriptions: readonly { id: string; paymentInstrument: { id: string; status: string } | null }[],
  defaultInstrumentId: string | undefined,
): Map<string, string[]> {
  const needs = new Map<string, string[]>();
  for (const subscription of subscriptions) {
    const instrumentId = collectionInstrumentOf(subscription.paymentInstrument, defaultInstrumentId);
    if (!instrumentId) continue;
    needs.set(instrumentId, [...(needs.get(instrumentId) ?? []), subscription.id]);
  }
  return needs;
}
