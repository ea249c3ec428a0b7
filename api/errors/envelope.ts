import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { ApiError } from '../../domain/errors';
import { constraintsFromIssues } from './zod-constraints';

export interface ErrorBody {
  code: string;
  message: string;
  context?: Record<string, unknown>;
}

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
}

/** Section 7.1. Every code not listed is an operation-specific business refusal. */
const STATUS_BY_CODE: Record<string, number> = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  // The dashboard's sign-in (docs/dashboard.md): refusals of credentials, not business rules.
  INVALID_CREDENTIALS: 401,
  TOTP_REQUIRED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMIT: 429,
  INTERNAL: 500,
  // An extension of section 7.1 (docs/errors.md): a valid request the payment provider could not answer.
  PROVIDER_UNAVAILABLE: 503,
};

export function statusOf(code: string): number {
  return STATUS_BY_CODE[code] ?? 422;
}

export function envelopeOf(error: ApiError): ErrorResponse {
  const body: ErrorBody = { code: error.code, message: error.message };
  if (error.context) body.context = error.context;
  return { status: statusOf(error.code), body };
}

/**
 * The one place any thrown value becomes an HTTP error. Anything that is not an ApiError or a
 * validation failure is a 500 with a fixed message: internals stay in the log.
 */
export function toApiError(error: unknown, input: unknown): ApiError {
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  if (cause instanceof ApiError) return cause;
  // tRPC reports an answer that fails its own output schema as INTERNAL_SERVER_ERROR with the
  // ZodError as cause: that is the server's fault, not the request's, so it is no VALIDATION.
  const ourOutput = error instanceof TRPCError && error.code === 'INTERNAL_SERVER_ERROR';
  if (cause instanceof ZodError && !ourOutput) return ApiError.validation(constraintsFromIssues(cause.issues, input));
  if (error instanceof TRPCError && error.code === 'NOT_FOUND') return new ApiError('NOT_FOUND', 'This endpoint does not exist.');
  return new ApiError('INTERNAL', 'An internal error occurred. Retry later; quote the request-id when contacting support.');
}
