/**
 * docs/payments.md. PROCESSING: a run holds the payment (its attempt key) and is asking providers,
 * or died doing so; PENDING: not finished and held by nobody (a run failed and handed it back).
 * REQUIRES_ACTION: the provider waits for the customer to authenticate (SCA); AWAITING_PROVIDER:
 * the provider is processing it and will say later (shown as PENDING in the payment object).
 * Both have left the cascade: the provider's webhook or books decide them.
 */
export type PaymentStatus = 'PENDING' | 'PROCESSING' | 'REQUIRES_ACTION' | 'AWAITING_PROVIDER' | 'SUCCEEDED' | 'DECLINED' | 'FAILED';

/** Statuses in which a payment waits for its provider, not for us. */
export const WAITING_PAYMENT_STATUSES = ['REQUIRES_ACTION', 'AWAITING_PROVIDER'] as const;
export type WaitingPaymentStatus = (typeof WAITING_PAYMENT_STATUSES)[number];

export function isWaitingPayment(status: string): status is WaitingPaymentStatus {
  return (WAITING_PAYMENT_STATUSES as readonly string[]).includes(status);
}

/** The largest amount a payment can carry: `payments.amount` is a PostgreSQL integer. */
export const MAX_AMOUNT = 2_147_483_647;

/**
 * A sum read as a PostgreSQL bigint (settlement amounts, aggregates), as a JSON-safe number.
 * Throws rather than round beyond 2^53: such an amount cannot be served exactly.
 */
export function exactNumber(value: bigint, what: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new RangeError(`${what} is beyond exact arithmetic: ${value}`);
  return number;
}
