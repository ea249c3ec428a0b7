/** How long the link customer-portal-sessions/create answers may wait to be opened (issue 43). */
export const PORTAL_LINK_TTL_MS = 10 * 60 * 1000;

/** A portal session ends after this long without a request. */
export const PORTAL_SESSION_IDLE_MS = 30 * 60 * 1000;

/**
 * And after this long in any case: a customer who keeps a tab open all day is asked for a fresh
 * link from the merchant's site, which checks that they are still signed in there.
 */
export const PORTAL_SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

/** `last_seen_at` moves at most this often, so a busy page does not write on every request. */
export const PORTAL_SESSION_TOUCH_MS = 60 * 1000;

/** Why an opened link starts no session; the refusal page says it in words. */
export type PortalLinkRefusal = 'INVALID' | 'USED' | 'EXPIRED' | 'CUSTOMER_REMOVED';
