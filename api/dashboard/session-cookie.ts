/** The dashboard's session cookie (docs/dashboard.md, "Sessions"). */
export const SESSION_COOKIE = 'bp_session';
/**
 * Its name over TLS. A browser takes a `__Host-` cookie only from a secure origin, with `Secure`,
 * `Path=/` and no `Domain`, so a sibling subdomain or a plain-HTTP page cannot plant or
 * overwrite it (cookie tossing); over TLS the plain name is therefore never read.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

function cookieName(overTls: boolean): string {
  return overTls ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/** The value of the cookie `name` in a `Cookie` header, if any. */
export function cookieValueOf(cookieHeader: string | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      const value = part.slice(at + 1).trim();
      return value || undefined;
    }
  }
  return undefined;
}

/** The session token of a `Cookie` header, if any: `__Host-bp_session` over TLS, else `bp_session`. */
export function sessionTokenOf(cookieHeader: string | undefined, overTls: boolean): string | undefined {
  return cookieValueOf(cookieHeader, cookieName(overTls));
}

/**
 * HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Path=/ (the
 * dashboard calls /v2 too); over TLS `Secure` and the `__Host-` name. No Max-Age: the browser
 * drops it when it closes; the server ends it earlier by its own expiries.
 */
export function sessionCookie(token: string, overTls: boolean): string {
  return `${cookieName(overTls)}=${token}; Path=/; HttpOnly; SameSite=Strict${overTls ? '; Secure' : ''}`;
}

export function clearedSessionCookie(overTls: boolean): string {
  return `${cookieName(overTls)}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${overTls ? '; Secure' : ''}`;
}
