/**
 * The portal session's CSRF token (from `session/me`), sent as `x-csrf-token` on every call
 * but `session/me`. Held in memory only: a reload asks `session/me` again.
 */
let token: string | undefined;

export function setCsrfToken(value: string | undefined): void {
  token = value;
}

export function csrfHeaders(): Record<string, string> {
  return token ? { 'x-csrf-token': token } : {};
}
