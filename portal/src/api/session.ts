import { portalCall } from './call';
import { setCsrfToken } from './csrf';
import type { PortalSessionInfo } from './types';

export async function fetchSession(): Promise<PortalSessionInfo> {
  const info = await portalCall<PortalSessionInfo>('session/me');
  setCsrfToken(info.csrf_token);
  return info;
}

/** Signs out: the cookie is cleared; the answer says where the customer goes back to. */
export async function endSession(): Promise<string | null> {
  const answer = await portalCall<{ return_url: string | null }>('session/end');
  setCsrfToken(undefined);
  return answer.return_url;
}
