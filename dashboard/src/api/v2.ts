import { createBillingClient, type paths } from '../../../client';
import { csrfHeaders } from './csrf';
import { envelopeOf, RequestFailed } from './errors';

/**
 * The platform's own /v2 operations, authenticated by the session cookie: no Authorization
 * header, the CSRF token on every call (docs/dashboard.md, "Sessions").
 */
const client = createBillingClient({
  baseUrl: window.location.origin,
  fetch: (request: Request) => {
    const withSession = new Request(request, { credentials: 'same-origin' });
    for (const [name, value] of Object.entries(csrfHeaders())) withSession.headers.set(name, value);
    return globalThis.fetch(withSession);
  },
});

/** Every /v2 path the typed client knows; bodies and answers are checked by the pages' own types. */
export type V2Path = keyof paths;

type UntypedPost = (path: V2Path, init: { body: unknown; headers?: Record<string, string> }) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** `idempotencyKey`: from `useIdempotencyKey` (api/idempotency.ts), on requests that move money. */
export async function v2<T>(path: V2Path, body: unknown, options: { idempotencyKey?: string } = {}): Promise<T> {
  const headers = options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : undefined;
  const { data, error, response } = await (client.POST as unknown as UntypedPost)(path, { body, ...(headers ? { headers } : {}) });
  if (!response.ok || error !== undefined) throw new RequestFailed(response.status, envelopeOf(response.status, error));
  return data as T;
}

/**
 * Operations answering 303 with a signed file link (`reports/download`): the browser follows
 * the redirect, so the link is where the response ended up; the body is not read.
 */
export async function v2FileLink(path: V2Path, body: unknown): Promise<string> {
  const response = await globalThis.fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', ...csrfHeaders() },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    const text = await response.text();
    throw new RequestFailed(response.status, envelopeOf(response.status, text ? JSON.parse(text) : undefined));
  }
  await response.body?.cancel();
  return response.url;
}

export interface Page<T> {
  items: T[];
  pagination: { page_size: number; next_page_token: string };
}
