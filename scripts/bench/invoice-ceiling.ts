import Fastify from 'fastify';
import { Pool } from 'pg';
import { ulid } from 'ulid';
import { formatDateTime } from '../../domain/datetime';
import { EVENT_TYPES } from '../../domain/event-catalogue';
import { newId } from '../../domain/ids';
import { SANDBOX_PROFILES } from '../../services/payments/providers/registry';
import { feeFor } from '../../services/payments/providers/sandbox-provider';
import { serveWhenAsked, startCeilingServer, type ApiUnderTest } from './processes';

/**
 * The ceiling of bench:invoices (issue 45): the rows the platform writes for create → finalize →
 * pay on the sandbox route, written bare, from Fastify and one `pg` pool of the API's size in a
 * process of its own, at the platform's paths so the same loops drive it. No auth, no
 * validation beyond what the guarantees need, no idempotency record (the loops send no
 * Idempotency-Key, so the platform writes none either).
 *
 * Each step is one statement, its own transaction: the fewest the guarantees allow.
 * - create: the invoice, its line and InvoiceCreated.
 * - finalize: DRAFT → OPEN with the customer's snapshot, and InvoiceFinalized.
 * - pay: (1) the claim, committed before the provider is asked: the invoice's charge guard, taken
 *   only on a payable invoice nobody else is charging, with the card checked ACTIVE and the
 *   customer's, and the payment created PROCESSING under its attempt key; (2) the sandbox
 *   provider's own books (the computation sandbox-alpha makes, in process); (3) the settlement:
 *   the payment's answer, the invoice PAID with its guard released, and InvoicePaid, together.
 */
const INVOICE_JSON = `jsonb_build_object('id', i.id, 'status', i.status, 'customer_id', i.customer_id, 'channel_id', i.channel_id,
  'currency', i.currency, 'total_amount', i.total_amount, 'amount_due', i.amount_due, 'amount_paid', i.amount_paid,
  'amount_details', i.amount_details, 'customer', i.customer_snapshot, 'created_at', i.created_at, 'finalized_at', i.finalized_at,
  'paid_at', i.paid_at, 'updated_at', i.updated_at,
  'line_items', (SELECT jsonb_agg(jsonb_build_object('id', l.id, 'description', l.description, 'amount', l.amount, 'quantity', l.quantity,
     'subtotal', l.subtotal, 'tax', l.tax) ORDER BY l.position) FROM invoice_line_items l WHERE l.invoice_id = i.id))`;

const CREATE = `
  WITH customer AS (SELECT account_id, channel_id FROM customers WHERE id = $1),
  invoice AS (
    INSERT INTO invoices (id, account_id, channel_id, customer_id, status, currency, total_amount, amount_due, amount_paid, amount_details,
                          discounts, billing_reason, collection_method, metadata, created_at, updated_at)
    SELECT $2, account_id, channel_id, $1, 'DRAFT', $3, $4, $4, 0, $5::jsonb, '[]'::jsonb, 'MANUAL', 'SEND_INVOICE', '{}'::jsonb, $6, $6
    FROM customer RETURNING id, account_id, channel_id),
  lines AS (
    INSERT INTO invoice_line_items (id, invoice_id, position, description, amount, currency, quantity, subtotal, discount, taxable, tax, created_at)
    SELECT l.id, invoice.id, l.position, l.description, l.amount, $3, l.quantity, l.subtotal, 0, l.subtotal, 0, $6
    FROM invoice, jsonb_to_recordset($7::jsonb) AS l(id text, position int, description text, amount int, quantity int, subtotal int))
  INSERT INTO outbox_events (id, account_id, channel_id, event_type, occurred_at, data, created_at)
  SELECT $8, account_id, channel_id, '${EVENT_TYPES.InvoiceCreated}', $6, jsonb_build_object('invoice', $9::jsonb || jsonb_build_object('channel_id', channel_id)), $6
  FROM invoice RETURNING channel_id`;

const FINALIZE = `
  WITH opened AS (
    UPDATE invoices i SET status = 'OPEN', finalized_at = $2, updated_at = $2,
      customer_snapshot = (SELECT jsonb_build_object('id', c.id, 'email', c.email, 'tax', c.tax) FROM customers c WHERE c.id = i.customer_id)
    WHERE i.id = $1 AND i.status = 'DRAFT'
    RETURNING i.*)
  INSERT INTO outbox_events (id, account_id, channel_id, event_type, occurred_at, data, created_at)
  SELECT $3, i.account_id, i.channel_id, '${EVENT_TYPES.InvoiceFinalized}', $2, jsonb_build_object('invoice', ${INVOICE_JSON}), $2
  FROM opened i RETURNING data->'invoice' AS invoice`;

const CLAIM = `
  WITH claimed AS (
    UPDATE invoices i SET payment_in_progress_id = $2
    FROM payment_instruments p
    WHERE i.id = $1 AND i.status IN ('OPEN', 'DUNNING', 'UNPAID') AND i.payment_in_progress_id IS NULL AND i.deleted_at IS NULL
      AND p.id = $3 AND p.customer_id = i.customer_id AND p.status = 'ACTIVE'
    RETURNING i.account_id, i.channel_id, i.customer_id, i.amount_due, i.currency, p.sandbox_scenario),
  payment AS (
    INSERT INTO payments (id, account_id, channel_id, customer_id, instrument_id, invoice_id, idempotency_key, amount, currency, status,
                          retryable, attempts, reference, attempt_key, claimed_at, created_at, updated_at)
    SELECT $4, account_id, channel_id, customer_id, $3, $1, $2, amount_due, currency, 'PROCESSING', false, '[]'::jsonb, $1, $5, $6, $6, $6
    FROM claimed)
  SELECT amount_due AS amount, currency, sandbox_scenario AS scenario FROM claimed`;

const PROVIDER_CHARGE = `
  INSERT INTO sandbox_provider_charges (id, provider, idempotency_key, amount, currency, fee, outcome, decline_code, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, 'APPROVED', NULL, $7)`;

const SETTLE = `
  WITH paid_payment AS (
    UPDATE payments SET status = 'SUCCEEDED', provider = $3, provider_charge_id = $4, fee = $5, attempts = $6::jsonb,
      attempt_key = NULL, claimed_at = NULL, updated_at = $7
    WHERE id = $1 AND status = 'PROCESSING' AND attempt_key = $2
    RETURNING invoice_id, amount, status),
  paid AS (
    UPDATE invoices i SET status = 'PAID', amount_paid = i.amount_paid + p.amount, amount_due = 0, payment_in_progress_id = NULL,
      paid_at = $7, updated_at = $7
    FROM paid_payment p WHERE i.id = p.invoice_id AND i.payment_in_progress_id = $8
    RETURNING i.*)
  INSERT INTO outbox_events (id, account_id, channel_id, event_type, occurred_at, data, created_at)
  SELECT $9, i.account_id, i.channel_id, '${EVENT_TYPES.InvoicePaid}', $7,
    jsonb_build_object('invoice', ${INVOICE_JSON}, 'payment', jsonb_build_object('id', $1::text, 'status', 'SUCCEEDED', 'amount', i.amount_paid, 'provider', $3::text)), $7
  FROM paid i RETURNING data AS result`;

const PROVIDER = SANDBOX_PROFILES['sandbox-alpha'];

interface LineInput {
  amount: number;
  quantity: number;
  description?: string;
}

async function serve(): Promise<void> {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE) });
  const app = Fastify({ logger: false });
  app.get('/health', async () => ({ status: 'ok' }));

  app.post<{ Body: { customer_id: string; currency: string; line_items: LineInput[] } }>('/v2/invoices/create', async (request, reply) => {
    const { customer_id: customerId, currency, line_items: items } = request.body;
    const now = new Date();
    const id = newId('invoice', now.getTime());
    const lines = items.map((l, position) => ({ id: newId('invoiceLineItem', now.getTime()), position, description: l.description ?? null, amount: l.amount, quantity: l.quantity, subtotal: l.amount * l.quantity }));
    const total = lines.reduce((sum, l) => sum + l.subtotal, 0);
    const details = { subtotal: total, discount: 0, taxable: total, tax: 0 };
    const invoice = { id, status: 'DRAFT', customer_id: customerId, currency, total_amount: total, amount_due: total, amount_paid: 0, amount_details: details, line_items: lines, created_at: now };
    const { rows } = await pool.query(CREATE, [customerId, id, currency, total, JSON.stringify(details), now, JSON.stringify(lines), newId('event', now.getTime()), JSON.stringify(invoice)]);
    if (rows.length === 0) return reply.code(422).send({ code: 'CUSTOMER_NOT_FOUND' });
    return { ...invoice, channel_id: rows[0].channel_id };
  });

  app.post<{ Body: { id: string } }>('/v2/invoices/finalize', async (request, reply) => {
    const now = new Date();
    const { rows } = await pool.query(FINALIZE, [request.body.id, now, newId('event', now.getTime())]);
    if (rows.length === 0) return reply.code(422).send({ code: 'INCOMPATIBLE_STATUS' });
    return rows[0].invoice;
  });

  app.post<{ Body: { id: string; payment_instrument_id: string } }>('/v2/invoices/pay', async (request, reply) => {
    const { id: invoiceId, payment_instrument_id: instrumentId } = request.body;
    const claimedAt = new Date();
    const key = `${invoiceId}/pay/${ulid(claimedAt.getTime())}/${instrumentId}`;
    const paymentId = newId('payment', claimedAt.getTime());
    const attemptKey = ulid(claimedAt.getTime());
    const claimed = await pool.query(CLAIM, [invoiceId, key, instrumentId, paymentId, attemptKey, claimedAt]);
    if (claimed.rows.length === 0) return reply.code(422).send({ code: 'INCOMPATIBLE_STATUS' });
    const { amount, currency, scenario } = claimed.rows[0] as { amount: number; currency: string; scenario: string };
    if (scenario !== 'APPROVE') throw new Error(`The ceiling charges approving sandbox cards only, not ${scenario}.`);

    const chargeId = newId('sandboxCharge');
    const fee = feeFor(amount, PROVIDER.fee);
    await pool.query(PROVIDER_CHARGE, [chargeId, PROVIDER.name, `${paymentId}/${PROVIDER.name}`, amount, currency, fee, new Date()]);

    const at = new Date();
    const attempts = [{ provider: PROVIDER.name, outcome: 'APPROVED', provider_charge_id: chargeId, at: formatDateTime(at) }];
    const settled = await pool.query(SETTLE, [paymentId, attemptKey, PROVIDER.name, chargeId, fee, JSON.stringify(attempts), at, key, newId('event', at.getTime())]);
    if (settled.rows.length === 0) throw new Error(`Payment ${paymentId} was not settled.`);
    return settled.rows[0].result;
  });

  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.once('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
}

/** Starts the ceiling against `databaseUrl` with a pool of `poolSize`; its routes are under `http://127.0.0.1:<port>/v2/invoices/`. */
export function startInvoiceCeiling(databaseUrl: string, poolSize: number): Promise<ApiUnderTest> {
  return startCeilingServer(__filename, databaseUrl, poolSize);
}

serveWhenAsked(serve);
