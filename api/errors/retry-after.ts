import type { ApiError } from '../../domain/errors';

/**
 * How long a client should wait before retrying a request the payment provider could not answer.
 * A provider outage or its rate limit rarely clears within a second or two, and a retry costs the
 * provider a call again (after a timeout, 20 s of waiting): 10 s keeps a checkout responsive
 * without hammering a provider that is down.
 */
export const PROVIDER_RETRY_AFTER_SECONDS = 10;

/**
 * The `Retry-After` header (RFC 9110, whole seconds, at least 1) of an error that says when to come
 * back: a 429's `next_try_at`, a 503 PROVIDER_UNAVAILABLE's fixed pause. None for any other error.
 */
export function retryAfterSeconds(error: ApiError, nowMs: number): number | undefined {
  if (error.code === 'PROVIDER_UNAVAILABLE') return PROVIDER_RETRY_AFTER_SECONDS;
  const nextTryAt = error.code === 'RATE_LIMIT' ? error.context?.next_try_at : undefined;
  if (typeof nextTryAt !== 'string') return undefined;
  return Math.max(1, Math.ceil((Date.parse(nextTryAt) - nowMs) / 1000));
}
