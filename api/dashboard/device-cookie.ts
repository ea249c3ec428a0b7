import { dashboardSettings } from '../../services/dashboard/config';
import { cookieValueOf } from './session-cookie';

/** The dashboard's known-device cookie (docs/dashboard.md, "Security": sign-in throttle). */
export const DEVICE_COOKIE = 'bp_device';

export function deviceTokenOf(cookieHeader: string | undefined): string | undefined {
  return cookieValueOf(cookieHeader, DEVICE_COOKIE);
}

/**
 * Outlives the session (that is its point) for the known-client period, renewed at each sign-in.
 * HttpOnly and SameSite=Strict like the session's, Secure when the request came over TLS; sent to
 * the session routes only, so the rest of the dashboard and /v2 never see it.
 */
export function deviceCookie(token: string, secure: boolean): string {
  const maxAge = Math.floor(dashboardSettings().knownClientMs / 1000);
  return `${DEVICE_COOKIE}=${token}; Path=/dashboard/api/session; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}
