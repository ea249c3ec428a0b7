/**
 * docs/payments.md. PROCESSING: a run holds the payment (its attempt key) and is asking providers,
 * or died doing so; PENDING: not finished and held by nobody (a run failed and handed it back).
 */
export type PaymentStatus = 'PENDING' | 'PROCESSING' | 'SUCCEEDED' | 'DECLINED' | 'FAILED';

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
