import { formatDateTime } from '../../domain/datetime';
import { ApiError } from '../../domain/errors';

/**
 * Section 7.3, and the one place an ApiError becomes a v1 answer (docs/subscription-restore.md).
 * The spec names 2.01, 1.01 and 1.02; 1.03 (rate limit) and 9.01 (internal) are ours.
 */
export const V1_CODES = {
  validation: '2.01',
  authorization: '1.01',
  accessDenied: '1.02',
  rateLimit: '1.03',
  internal: '9.01',
} as const;

export interface V1ErrorObject {
  code: string;
  message: string;
  /** A business refusal: the v2 422 code behind it (section 9 lets responses gain fields). */
  reason?: string;
}

export type V1Body = { status: 'ok' } | { status: 'error'; error: V1ErrorObject } | { error: V1ErrorObject };

export interface V1Response {
  status: number;
  body: V1Body;
  headers?: Record<string, string>;
}

const BY_CODE: Record<string, { status: number; code: string }> = {
  VALIDATION: { status: 400, code: V1_CODES.validation },
  // The spec lists 400, 401, 403 and 404 for v1: an oversized body is a malformed request.
  PAYLOAD_TOO_LARGE: { status: 400, code: V1_CODES.validation },
  UNAUTHENTICATED: { status: 401, code: V1_CODES.authorization },
  PERMISSION_DENIED: { status: 403, code: V1_CODES.accessDenied },
  NOT_FOUND: { status: 404, code: V1_CODES.validation },
  // A coupon named in the request is an entity of the request like the subscription.
  COUPON_NOT_FOUND: { status: 404, code: V1_CODES.validation },
  RATE_LIMIT: { status: 429, code: V1_CODES.rateLimit },
  INTERNAL: { status: 500, code: V1_CODES.internal },
};

export const RESTORED: V1Response = { status: 200, body: { status: 'ok' } };

export const INTERNAL_ERROR = new ApiError('INTERNAL', 'An internal error occurred. Retry later; quote the request-id when contacting support.');

/**
 * Every other code is a refusal by the rules of the subscription (a v2 422): the request was
 * well formed and authorised, so it is the 200 answer of section 4.12 carrying its optional
 * `error` object, code 2.01, with the v2 code as `reason`.
 */
export function v1ResponseOf(error: ApiError): V1Response {
  const mapped = BY_CODE[error.code];
  if (!mapped) {
    return { status: 200, body: { status: 'error', error: { code: V1_CODES.validation, message: error.message, reason: error.code } } };
  }
  const response: V1Response = { status: mapped.status, body: { error: { code: mapped.code, message: error.message } } };
  const retryAfter = error.code === 'RATE_LIMIT' ? error.context?.retry_after_seconds : undefined;
  if (typeof retryAfter === 'number') response.headers = { 'retry-after': String(retryAfter) };
  return response;
}

/** v1 errors carry no context, so the moment to retry is in the message and a `retry-after` header. */
export function rateLimitError(retryAt: Date, now: Date): ApiError {
  return new ApiError('RATE_LIMIT', `Too many restore requests for this merchant; retry at ${formatDateTime(retryAt)}.`, {
    next_try_at: formatDateTime(retryAt),
    retry_after_seconds: Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000)),
  });
}
