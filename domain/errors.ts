/**
 * The error codes of section 7.1. Any other code is an operation-specific 422 (section 7.2),
 * written as a string in UPPER_SNAKE_CASE where the rule lives.
 */
export const GENERIC_ERROR_CODES = [
  'VALIDATION',
  'UNAUTHENTICATED',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'RATE_LIMIT',
  'INTERNAL',
] as const;

export type GenericErrorCode = (typeof GENERIC_ERROR_CODES)[number];

export type ConstraintType =
  | 'REQUIRED'
  | 'TYPE'
  | 'MIN'
  | 'MAX'
  | 'ENUM'
  | 'FORMAT'
  | 'UNKNOWN_FIELD'
  | 'INVALID';

export interface Constraint {
  type: ConstraintType;
  message: string;
}

export type Constraints = Record<string, Constraint>;

/**
 * The one error type every layer throws on purpose. The HTTP status comes from the code
 * alone, in `api/errors/envelope.ts`, so the mapping exists once.
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly context?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
    // An expected outcome, not a bug: without this, every refusal would pay for formatting a
    // source-mapped stack trace that nobody reads (tRPC reads `stack` when it wraps the error).
    this.stack = `${this.name}: ${message}`;
  }

  static validation(constraints: Constraints, message = 'The request is invalid.'): ApiError {
    return new ApiError('VALIDATION', message, { constraints });
  }

  static notFound(what: string, id: string): ApiError {
    return new ApiError('NOT_FOUND', `${what} ${id} does not exist.`);
  }
}
