/**
 * What an account lets its customers do in the customer portal (docs/portal.md, "Settings"),
 * kept in `accounts.portal_settings`. The portal's transport and its pages both read it; the
 * rules it implies (may this customer cancel now?) are decided here once.
 */
export const PORTAL_CANCELLATION_MODES = ['NEVER', 'AT_PERIOD_END', 'IMMEDIATELY'] as const;
export type PortalCancellationMode = (typeof PORTAL_CANCELLATION_MODES)[number];

/** At most this many prices a customer may switch between: a portal page lists them all. */
export const MAX_SWITCHABLE_PRICES = 50;

export interface PortalSettings {
  /** NEVER: the portal offers no cancel; AT_PERIOD_END / IMMEDIATELY: the one mode it offers. */
  cancellation: PortalCancellationMode;
  /** The customer may change the quantity of a subscription line. */
  quantity_changes: boolean;
  /**
   * Prices a customer may switch a subscription line between: a line whose price is in the list
   * may move to any other price of the list with the same currency and billing type. Empty: none.
   */
  switchable_price_ids: string[];
  /** The customer may change their address, tax registrations and e-mail. */
  billing_details_updates: boolean;
}

export const DEFAULT_PORTAL_SETTINGS: PortalSettings = {
  cancellation: 'AT_PERIOD_END',
  quantity_changes: false,
  switchable_price_ids: [],
  billing_details_updates: true,
};

/** The stored JSON read leniently: a missing or unknown field takes its default. */
export function portalSettingsOf(stored: unknown): PortalSettings {
  const value = stored !== null && typeof stored === 'object' ? (stored as Partial<Record<keyof PortalSettings, unknown>>) : {};
  return {
    cancellation: PORTAL_CANCELLATION_MODES.includes(value.cancellation as PortalCancellationMode)
      ? (value.cancellation as PortalCancellationMode)
      : DEFAULT_PORTAL_SETTINGS.cancellation,
    quantity_changes: typeof value.quantity_changes === 'boolean' ? value.quantity_changes : DEFAULT_PORTAL_SETTINGS.quantity_changes,
    switchable_price_ids: Array.isArray(value.switchable_price_ids)
      ? value.switchable_price_ids.filter((id): id is string => typeof id === 'string').slice(0, MAX_SWITCHABLE_PRICES)
      : [],
    billing_details_updates: typeof value.billing_details_updates === 'boolean' ? value.billing_details_updates : DEFAULT_PORTAL_SETTINGS.billing_details_updates,
  };
}

/** The subscriptions/cancel mode the portal uses, or null when customers may not cancel. */
export function portalCancelMode(settings: PortalSettings): 'PERIOD_END' | 'IMMEDIATELY' | null {
  switch (settings.cancellation) {
    case 'NEVER':
      return null;
    case 'AT_PERIOD_END':
      return 'PERIOD_END';
    case 'IMMEDIATELY':
      return 'IMMEDIATELY';
  }
}
