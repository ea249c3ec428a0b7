import type { Database } from '../../../../prisma/client';
import { readRows, sqlStatement, writeRows } from '../../../../prisma/statements';

export type StripeRequestKind = 'CHARGE' | 'REFUND';

export interface StripeRequestRow {
  objectId: string | null;
  amount: number;
  currency: string;
  requestedAt: Date;
}

/**
 * Prepared statements, one round trip each: the books are written twice on every charge, where
 * Prisma's query compiler cost more CPU than the statements (the sandbox's books moved off it in
 * issue 13 for the same reason; docs/benchmarks.md, bench:invoices with the Stripe route).
 */
const insertSql = sqlStatement(
  'stripe_requests.insert',
  `INSERT INTO stripe_requests (account_id, idempotency_key, kind, amount, currency, requested_at, updated_at)
   VALUES ($1, $2, $3, $4, $5, $6, $6)
   ON CONFLICT (account_id, idempotency_key) DO NOTHING
   RETURNING idempotency_key`,
);
const byKeySql = sqlStatement(
  'stripe_requests.by_key',
  `SELECT object_id AS "objectId", amount, currency, requested_at AS "requestedAt" FROM stripe_requests WHERE account_id = $1 AND idempotency_key = $2`,
);
const recordObjectSql = sqlStatement(
  'stripe_requests.record_object',
  `UPDATE stripe_requests SET object_id = $3, updated_at = $4 WHERE account_id = $1 AND idempotency_key = $2 AND object_id IS NULL`,
);
const byObjectSql = sqlStatement(
  'stripe_requests.by_object',
  `SELECT idempotency_key AS "idempotencyKey", kind FROM stripe_requests WHERE object_id = $2 AND account_id = $1 LIMIT 1`,
);

/**
 * The request recorded under the key, or null when none was ever sent: then Stripe holds
 * nothing under it and sending it is safe.
 */
export async function recordedRequest(db: Database, accountId: string, idempotencyKey: string): Promise<StripeRequestRow | null> {
  const [row] = await readRows<StripeRequestRow>(db, byKeySql, [accountId, idempotencyKey]);
  return row ?? null;
}

/**
 * Written and committed before the request is sent, so a run that dies mid-call leaves a trace.
 * True when this call wrote it: nothing was ever sent under the key. False when a row was there
 * already: the request may have reached Stripe, whose answer is to be looked up first.
 */
export async function recordRequest(
  db: Database,
  request: { accountId: string; idempotencyKey: string; kind: StripeRequestKind; amount: number; currency: string },
  now: Date,
): Promise<boolean> {
  const written = await writeRows(db, insertSql, [request.accountId, request.idempotencyKey, request.kind, request.amount, request.currency, now]);
  return written.length === 1;
}

/** Stripe's id of the object the request made, once known. */
export async function recordObject(db: Database, accountId: string, idempotencyKey: string, objectId: string, now: Date): Promise<void> {
  await writeRows(db, recordObjectSql, [accountId, idempotencyKey, objectId, now]);
}

/** The key a PaymentIntent or Refund was asked under: how a webhook finds our payment or refund. */
export async function requestOfObject(db: Database, accountId: string, objectId: string): Promise<{ idempotencyKey: string; kind: string } | null> {
  const [row] = await readRows<{ idempotencyKey: string; kind: string }>(db, byObjectSql, [accountId, objectId]);
  return row ?? null;
}
