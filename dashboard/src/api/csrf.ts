/**
 * The session's CSRF token (from sign-in or `me`), sent as `x-csrf-token` on every state
 * change. Held in memory only: a reload asks `me` again.
 */
let token: string | undefined;

export function setCsrfToken(value: string | undefined): void {
  token = value;
}

export function csrfHeaders(): Record<string, string> {
  return token ? { 'x-csrf-token': token } : {};
}
