import { csrfTokenMatches } from '../../domain/dashboard-tokens';
import { ApiError } from '../../domain/errors';
import type { Database } from '../../prisma/client';
import { resolveSession, type ResolvedSession } from '../../services/dashboard/sessions';
import { sessionTokenOf } from './session-cookie';

/** What a browser presents besides the body: the cookie, the CSRF header and the Fetch Metadata. */
export interface SessionCredentials {
  cookie?: string;
  csrfToken?: string;
  /** `Sec-Fetch-Site`, sent by every current browser. */
  fetchSite?: string;
  /** The request came over TLS: the cookie is then the `__Host-` one (session-cookie.ts). */
  overTls: boolean;
}

export interface AuthenticatedSession extends ResolvedSession {
  token: string;
}

const noSession = () => new ApiError('UNAUTHENTICATED', 'Sign in to the dashboard first (or send an API key secret in `Authorization: Bearer <secret>`).');

/**
 * A request another site's page made is refused before anything else: SameSite=Strict keeps the
 * cookie off it already, and this also covers a sibling subdomain (`same-site`). Browsers that
 * send no Fetch Metadata are left to the cookie and the CSRF token.
 */
export function refuseCrossSite(credentials: SessionCredentials): void {
  if (credentials.fetchSite === 'cross-site' || credentials.fetchSite === 'same-site') {
    throw new ApiError('PERMISSION_DENIED', 'Requests from another site are refused.', { sec_fetch_site: credentials.fetchSite });
  }
}

export function hasSessionCookie(credentials: SessionCredentials | undefined): boolean {
  return credentials !== undefined && sessionTokenOf(credentials.cookie, credentials.overTls) !== undefined;
}

/**
 * The live session behind the cookie (401 without one) and, when `requireCsrf`, the session's
 * CSRF token in `x-csrf-token` (403 when missing or wrong, compared in constant time).
 */
export async function authenticateSession(
  db: Database,
  credentials: SessionCredentials,
  now: Date,
  options: { requireCsrf: boolean },
): Promise<AuthenticatedSession> {
  refuseCrossSite(credentials);
  const token = sessionTokenOf(credentials.cookie, credentials.overTls);
  if (!token) throw noSession();
  const session = await resolveSession(db, token, now);
  if (!session) throw noSession();
  if (options.requireCsrf && !csrfTokenMatches(token, credentials.csrfToken)) {
    throw new ApiError('PERMISSION_DENIED', 'The `x-csrf-token` header is missing or does not match this session (from session/me).', { header: 'x-csrf-token' });
  }
  return { ...session, token };
}
