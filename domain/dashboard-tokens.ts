import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Session and invitation tokens: 256 random bits, so a fast hash (SHA-256) is enough for what
 * is stored, and a lookup by that hash is safe. The database never holds a usable token.
 */
export function newDashboardToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashDashboardToken(token: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(token, 'utf8').digest());
}

/**
 * The CSRF token of a session, derived from its secret token: a page can read it from `me`
 * (the cookie itself is HttpOnly), another site can neither read the cookie nor compute this,
 * and nothing extra is stored. It changes with the session, so with every sign-in.
 */
export function csrfTokenOf(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('dashboard csrf', 'utf8').digest('base64url');
}

/** Compared in constant time; a missing or differently sized token fails without comparing. */
export function csrfTokenMatches(sessionToken: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const expected = Buffer.from(csrfTokenOf(sessionToken), 'utf8');
  const given = Buffer.from(presented, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
