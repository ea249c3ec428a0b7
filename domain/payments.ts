/** docs/payments.md. PENDING is a payment whose charge path has not finished (or crashed midway). */
export type PaymentStatus = 'PENDING' | 'SUCCEEDED' | 'DECLINED' | 'FAILED';

/** The largest amount a payment can carry: `payments.amount` is a PostgreSQL integer. */
export const MAX_AMOUNT = 2_147_483_647;
