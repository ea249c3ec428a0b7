/**
 * Dashboard e-mails are compared case-insensitively: stored and looked up trimmed and in lower
 * case. The shape check is deliberately loose (`admin@localhost` is a fine address on a
 * self-hosted platform); nothing is ever sent to it.
 */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

export function looksLikeEmail(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(value);
}
