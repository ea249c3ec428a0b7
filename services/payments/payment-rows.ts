import type { Database, Prisma } from '../../prisma/client';
import { readRows, sqlStatement, writeRows } from '../../prisma/statements';

export type PaymentRow = Awaited<ReturnType<Database['payment']['findUniqueOrThrow']>>;

/**
 * The charge path's statements on `payments`, each one round trip over the pool (prisma/statements.ts):
 * a payment is charged outside any transaction by design (its committed row is the claim), so
 * each of these is a single statement committed on its own (invoices/pay inserts its payment in
 * its claim's transaction and records the final answer in its settlement's), and Prisma's client
 * cost more CPU than the statement (issue 13). Every column as Prisma names it, so a row is a PaymentRow;
 * test/payments/payment-rows.test.ts holds them equal to Prisma's reading.
 */
const COLUMNS = `id, account_id AS "accountId", channel_id AS "channelId", customer_id AS "customerId", instrument_id AS "instrumentId",
  invoice_id AS "invoiceId", idempotency_key AS "idempotencyKey", amount, currency, status, decline_code AS "declineCode",
  decline_message AS "declineMessage", retryable, provider, provider_charge_id AS "providerChargeId", fee,
  next_action_url AS "nextActionUrl", refunded_amount AS "refundedAmount", attempts, reference, attempt_key AS "attemptKey", claimed_at AS "claimedAt",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

const byKeySql = sqlStatement('payments.by_key', `SELECT ${COLUMNS} FROM payments WHERE account_id = $1 AND idempotency_key = $2`);
const byIdSql = sqlStatement('payments.by_id', `SELECT ${COLUMNS} FROM payments WHERE id = $1`);
const insertSql = sqlStatement(
  'payments.insert',
  `INSERT INTO payments (id, account_id, channel_id, customer_id, instrument_id, invoice_id, idempotency_key, amount, currency, status,
                         decline_code, decline_message, retryable, attempts, reference, attempt_key, claimed_at, created_at, updated_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, false, '[]'::jsonb, $13, $14, $15, $16, $16)
   ON CONFLICT DO NOTHING
   RETURNING ${COLUMNS}`,
);
const claimSql = sqlStatement(
  'payments.claim',
  `UPDATE payments SET status = 'PROCESSING', attempt_key = $2, claimed_at = $3, updated_at = $3
   WHERE id = $1 AND (status = 'PENDING' OR (status = 'PROCESSING' AND claimed_at < $4))
   RETURNING ${COLUMNS}`,
);
const recordStepSql = sqlStatement(
  'payments.record_step',
  `UPDATE payments SET updated_at = $3, attempts = coalesce($4::jsonb, attempts), claimed_at = $3
   WHERE id = $1 AND status = 'PROCESSING' AND attempt_key = $2
   RETURNING ${COLUMNS}`,
);
const recordFinalSql = sqlStatement(
  'payments.record_final',
  `UPDATE payments SET updated_at = $3, attempts = coalesce($4::jsonb, attempts), status = $5, decline_code = $6, decline_message = $7,
                       retryable = $8, provider = $9, provider_charge_id = $10, fee = $11, next_action_url = $12, attempt_key = NULL, claimed_at = NULL
   WHERE id = $1 AND status = 'PROCESSING' AND attempt_key = $2
   RETURNING ${COLUMNS}`,
);
/**
 * A payment waiting for its provider (REQUIRES_ACTION, AWAITING_PROVIDER) brought to what the
 * provider says now; only from the status it was read in, so a webhook and a sweep racing write once.
 */
const resolveWaitingSql = sqlStatement(
  'payments.resolve_waiting',
  `UPDATE payments SET updated_at = $3, status = $4, decline_code = $5, decline_message = $6, retryable = $7, fee = $8, next_action_url = $9
   WHERE id = $1 AND status = $2
   RETURNING ${COLUMNS}`,
);

export async function paymentByKey(db: Database | Prisma.TransactionClient, accountId: string, idempotencyKey: string): Promise<PaymentRow | undefined> {
  return (await readRows<PaymentRow>(db, byKeySql, [accountId, idempotencyKey]))[0];
}

export async function paymentById(db: Database, id: string): Promise<PaymentRow> {
  const [row] = await readRows<PaymentRow>(db, byIdSql, [id]);
  if (!row) throw new Error(`Payment ${id} has no row.`);
  return row;
}

export interface NewPayment {
  id: string;
  accountId: string;
  channelId: string;
  customerId: string;
  instrumentId: string;
  invoiceId: string | null;
  idempotencyKey: string;
  amount: number;
  currency: string;
  status: string;
  declineCode: string | null;
  declineMessage: string | null;
  reference: string | null;
  attemptKey: string | null;
  claimedAt: Date | null;
  at: Date;
}

/** The new payment, or undefined when one with its key (or id) exists: a concurrent call won the race. */
export async function insertPayment(db: Database | Prisma.TransactionClient, p: NewPayment): Promise<PaymentRow | undefined> {
  const [row] = await writeRows<PaymentRow>(db, insertSql, [
    p.id, p.accountId, p.channelId, p.customerId, p.instrumentId, p.invoiceId, p.idempotencyKey, p.amount, p.currency, p.status,
    p.declineCode, p.declineMessage, p.reference, p.attemptKey, p.claimedAt, p.at,
  ]);
  return row;
}

/** The payment claimed under `attemptKey` if nobody holds it or its holder's claim is older than `leaseStart`. */
export async function claimPayment(db: Database, id: string, attemptKey: string, at: Date, leaseStart: Date): Promise<PaymentRow | undefined> {
  return (await writeRows<PaymentRow>(db, claimSql, [id, attemptKey, at, leaseStart]))[0];
}

export interface FinalRecord {
  status: string;
  declineCode: string | null;
  declineMessage: string | null;
  retryable: boolean;
  provider: string | null;
  providerChargeId: string | null;
  fee: number | null;
  nextActionUrl?: string | null;
}

/**
 * One provider's answer (`attempts`, the whole list, when one was added) and, when the payment
 * ends with it, its outcome; only while `attemptKey` still holds it. Undefined when it does not.
 */
export async function recordPaymentStep(
  db: Database | Prisma.TransactionClient,
  claim: { id: string; attemptKey: string },
  at: Date,
  attempts: readonly unknown[] | undefined,
  final: FinalRecord | undefined,
): Promise<PaymentRow | undefined> {
  const head = [claim.id, claim.attemptKey, at, attempts ? JSON.stringify(attempts) : null];
  const [row] = final
    ? await writeRows<PaymentRow>(db, recordFinalSql, [
        ...head, final.status, final.declineCode, final.declineMessage, final.retryable, final.provider, final.providerChargeId, final.fee, final.nextActionUrl ?? null,
      ])
    : await writeRows<PaymentRow>(db, recordStepSql, head);
  return row;
}

/** The new state of a waiting payment, or undefined when another caller moved it first. */
export async function resolveWaitingPayment(
  db: Database | Prisma.TransactionClient,
  payment: { id: string; status: string },
  at: Date,
  to: Pick<FinalRecord, 'status' | 'declineCode' | 'declineMessage' | 'retryable' | 'fee'> & { nextActionUrl: string | null },
): Promise<PaymentRow | undefined> {
  const [row] = await writeRows<PaymentRow>(db, resolveWaitingSql, [payment.id, payment.status, at, to.status, to.declineCode, to.declineMessage, to.retryable, to.fee, to.nextActionUrl]);
  return row;
}
