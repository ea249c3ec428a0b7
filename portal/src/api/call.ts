import { csrfHeaders } from './csrf';
import { envelopeOf, RequestFailed } from './errors';

/** Dispatched on `window` when an answer says the portal session is over (401). */
export const SESSION_ENDED_EVENT = 'portal:session-ended';

/**
 * `POST /portal/api/{operation}` (docs/portal.md, "The portal's operations"): JSON in and out,
 * the session cookie, the CSRF token, and on changes that must not happen twice the
 * Idempotency-Key of the person's attempt (api/idempotency.ts).
 */
export async function portalCall<T>(operation: string, body: unknown = {}, options: { idempotencyKey?: string } = {}): Promise<T> {
  const response = await fetch(`/portal/api/${operation}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: {
      'content-type': 'application/json',
      ...csrfHeaders(),
      ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // A proxy's HTML error page: the status says enough.
  }
  if (!response.ok) {
    const failure = new RequestFailed(response.status, envelopeOf(response.status, parsed));
    if (response.status === 401) window.dispatchEvent(new Event(SESSION_ENDED_EVENT));
    throw failure;
  }
  return parsed as T;
}
