import { cookieValueOf } from '../dashboard/session-cookie';

/** The customer portal's session cookie (docs/portal.md, "The portal session"). */
export const PORTAL_COOKIE = 'bp_portal';
/**
 * Over TLS. Not `__Host-`: that prefix requires `Path=/`, and this cookie is kept to `/portal` so
 * the dashboard and /v2 never receive it. `__Secure-` still keeps a plain-HTTP page from setting it.
 */
export const SECURE_PORTAL_COOKIE = `__Secure-${PORTAL_COOKIE}`;

function cookieName(overTls: boolean): string {
  return overTls ? SECURE_PORTAL_COOKIE : PORTAL_COOKIE;
}

export function portalTokenOf(cookieHeader: string | undefined, overTls: boolean): string | undefined {
  return cookieValueOf(cookieHeader, cookieName(overTls));
}

/**
 * HttpOnly, Path=/portal, no Max-Age (gone when the browser closes). SameSite=Lax rather than
 * Strict: the customer arrives through a redirect from the merchant's site, and Chromium does not
 * send a Strict cookie on the navigation that ends that cross-site chain, so the first page would
 * find no session. Lax still keeps it off other sites' POSTs, and every change needs the CSRF token.
 */
export function portalCookie(token: string, overTls: boolean): string {
  return `${cookieName(overTls)}=${token}; Path=/portal; HttpOnly; SameSite=Lax${overTls ? '; Secure' : ''}`;
}

export function clearedPortalCookie(overTls: boolean): string {
  return `${cookieName(overTls)}=; Path=/portal; HttpOnly; SameSite=Lax; Max-Age=0${overTls ? '; Secure' : ''}`;
}
