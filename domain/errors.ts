/**
 * The error codes of section 7.1, and PROVIDER_UNAVAILABLE, this platform's extension of it (503,
 * docs/errors.md). Any other code is an operation-specific 422 (section 7.2), written as a string
 * in UPPER_SNAKE_CASE where the rule lives.
 */
export const GENERIC_ERROR_CODES = [
  'VALIDATION',
  'UNAUTHENTICATED',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'RATE_LIMIT',
  'INTERNAL',
  'PROVIDER_UNAVAILABLE',
] as const;

export type GenericErrorCode = (typeof GENERIC_ERROR_CODES)[number];

/**
 * The operation-specific 422 codes of the `/v2` operations (section 7.2). Each operation declares
 * the ones it answers, typed by this list (an `error-codes.ts` beside each resource group's router), and the OpenAPI document lists
 * them per operation.
 */
export const OPERATION_ERROR_CODES = [
  'BALANCE_OUT_OF_RANGE',
  'BILLING_PERIOD_MISMATCH',
  'CANCELLATION_ALREADY_SCHEDULED',
  'CANCELLATION_NOT_SCHEDULED',
  'CANCELLATION_SCHEDULED',
  'CARD_DECLINED',
  'CARD_EXPIRED',
  'CHANNEL_NOT_FOUND',
  'COUPON_CODE_ALREADY_EXISTS',
  'COUPON_CURRENCY_MISMATCH',
  'COUPON_NOT_FOUND',
  'CREDIT_NOTE_EMPTY',
  'CREDIT_NOTE_EXCEEDS_INVOICE',
  'CREDIT_NOTE_EXCEEDS_LINE',
  'CREDIT_NOTE_NOT_VOIDABLE',
  'CREDIT_NOTE_SPLIT_MISMATCH',
  'CURRENCY_MISMATCH',
  'CUSTOMER_ADDRESS_COUNTRY_REQUIRED',
  'CUSTOMER_NOT_FOUND',
  'DELIVERY_IN_PROGRESS',
  'DUPLICATE_USAGE_PRICE',
  'ENDPOINT_ALREADY_EXISTS',
  'ENDPOINT_NOT_ACTIVE',
  'EVENT_OUTSIDE_ENDPOINT_CHANNEL',
  'FINALIZATION_FAILED',
  'IDEMPOTENCY_KEY_REUSED',
  'INCOMPATIBLE_STATUS',
  'INSTRUMENT_IN_USE',
  'INVALID_DEFAULT_PAYMENT_INSTRUMENT',
  'INVALID_TAX_REGISTRATION_VALIDATION_SOURCE',
  'INVALID_TAX_REGISTRATION_VALIDATION_UPDATE',
  'INVOICE_LINE_ITEM_NOT_FOUND',
  'INVOICE_OVERDUE',
  'ITEM_ALREADY_EXISTS',
  'LINE_ITEM_NOT_FOUND',
  'METER_CHANGE_TOO_EARLY',
  'METER_IN_USE',
  'METER_NOT_FOUND',
  'NOTHING_TO_REDELIVER',
  'NO_PERIOD_END',
  'OPEN_PAYMENT_LIMIT_REACHED',
  'PAYMENT_INSTRUMENT_NOT_ACTIVE',
  'PAYMENT_INSTRUMENT_NOT_FOUND',
  'PAYMENT_INSTRUMENT_REQUIRED',
  'PAYMENT_METHOD_NOT_CARD',
  'PAYMENT_METHOD_OF_ANOTHER_CUSTOMER',
  'PRODUCT_NOT_FOUND',
  'PRODUCT_PRICE_NOT_FOUND',
  'PRORATION_DATE_OUT_OF_PERIOD',
  'PROVIDER_CREDENTIALS_REJECTED',
  'PROVIDER_NOT_CONNECTED',
  'PROVIDER_REFERENCE_NOT_FOUND',
  'RECURRING_LINE_ITEM_REQUIRED',
  'REDELIVERY_NOT_STARTED',
  'REFUND_EXCEEDS_PAYMENT',
  'ROUTING_CONFIG_ALREADY_EXISTS',
  'SETUP_INTENT_NOT_SUCCEEDED',
  'SUBSCRIPTION_NOT_FOUND',
  'TOKENIZE_NOT_ALLOWED',
  'TOO_MANY_LINE_ITEMS',
  'TRIAL_NOT_ACTIVE',
  'USAGE_CHARGE_TOO_LARGE',
  'USAGE_LINE_ITEM_LOCKED',
  'USAGE_PRICE_NOT_INVOICEABLE',
  'USAGE_WINDOW_TOO_LARGE',
] as const;

export type OperationErrorCode = (typeof OPERATION_ERROR_CODES)[number];

export type ErrorCode = GenericErrorCode | OperationErrorCode;

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
