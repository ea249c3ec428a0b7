import { Prisma } from '../generated/prisma/client';
import type { Database } from '../prisma/client';
import { exactNumber } from '../domain/payments';
import type { Reconciliation, SettlementLineKind, SettlementParts } from '../domain/settlement-lines';

/**
 * The provider's books as settlements and statements read them (docs/settlements.md, "Source
 * of truth"): every approved charge and every refund the provider recorded in a time range,
 * each attributed to a legal entity through the payment its idempotency key names, and
 * reconciled against what our payments and refunds say.
 */

/** The sandbox's books hold charges and refunds; a Stripe payout's lines are any kind (docs/settlements.md). */
export type EntryKind = SettlementLineKind;

/** How a provider's line compares with our records (docs/settlements.md, "Reconciliation"). */
export type { Reconciliation };

export interface BookLine extends SettlementParts {
  kind: EntryKind;
  provider: string;
  /** The provider's id of the charge or refund (of the fee or adjustment). */
  providerReference: string;
  /** Null for a line about no charge (a Stripe fee). */
  providerChargeId: string | null;
  transactedAt: Date;
  currency: string;
  paymentId: string | null;
  invoiceId: string | null;
  channelId: string | null;
  refundId: string | null;
  legalEntityId: string | null;
  reconciliation: Reconciliation;
}

export interface BookTotal {
  provider: string;
  /** Null: lines no legal entity receives (docs/settlements.md, "Legal entities"). */
  legalEntityId: string | null;
  accountId: string | null;
  currency: string;
  grossAmount: number;
  refundedAmount: number;
  feeAmount: number;
  lines: number;
}

export interface BookRange {
  from: Date;
  /** Exclusive. */
  to: Date;
  provider?: string;
}

/**
 * Charges are matched to payments by the key the charge path sends, `<payment id>/<provider>`
 * (docs/sandbox.md): it names the payment even when the payment never learnt of the charge.
 * A channel without a legal entity falls back to its account's only legal entity.
 */
function attributedLines(range: BookRange): Prisma.Sql {
  const chargeProvider = range.provider ? Prisma.sql`AND c.provider = ${range.provider}` : Prisma.empty;
  const refundProvider = range.provider ? Prisma.sql`AND r.provider = ${range.provider}` : Prisma.empty;
  return Prisma.sql`
    WITH entries AS (
      SELECT 'CHARGE' AS kind, c.provider, c.id AS provider_reference, c.id AS provider_charge_id,
             c.created_at AS transacted_at, c.currency,
             c.amount AS gross_amount, 0 AS refunded_amount, c.fee AS fee_amount,
             p.id AS payment_id, p.invoice_id, p.channel_id, p.account_id, NULL::text AS refund_id,
             CASE
               WHEN p.id IS NULL THEN 'UNKNOWN_PAYMENT'
               WHEN p.status <> 'SUCCEEDED' OR p.provider_charge_id IS DISTINCT FROM c.id
                 OR p.amount <> c.amount OR p.currency <> c.currency OR p.fee IS DISTINCT FROM c.fee THEN 'PAYMENT_MISMATCH'
               ELSE 'MATCHED'
             END AS reconciliation
      FROM sandbox_provider_charges c
      LEFT JOIN payments p ON p.id = split_part(c.idempotency_key, '/', 1)
      WHERE c.outcome = 'APPROVED' AND c.created_at >= ${range.from} AND c.created_at < ${range.to} ${chargeProvider}
      UNION ALL
      SELECT 'REFUND', r.provider, r.id, r.charge_id,
             r.created_at, c.currency,
             0, r.amount, 0,
             p.id, p.invoice_id, p.channel_id, p.account_id, f.id,
             CASE
               WHEN p.id IS NULL THEN 'UNKNOWN_PAYMENT'
               WHEN f.id IS NULL THEN 'UNKNOWN_REFUND'
               WHEN f.status <> 'SUCCEEDED' OR f.amount <> r.amount OR f.payment_id <> p.id THEN 'REFUND_MISMATCH'
               ELSE 'MATCHED'
             END
      FROM sandbox_provider_refunds r
      JOIN sandbox_provider_charges c ON c.id = r.charge_id AND c.provider = r.provider
      LEFT JOIN payments p ON p.id = split_part(c.idempotency_key, '/', 1)
      LEFT JOIN refunds f ON f.account_id = p.account_id AND f.idempotency_key = r.idempotency_key
      WHERE r.created_at >= ${range.from} AND r.created_at < ${range.to} ${refundProvider}
    )
    SELECT e.*, le.id AS legal_entity_id, le.account_id AS legal_entity_account_id
    FROM entries e
    LEFT JOIN channels ch ON ch.id = e.channel_id
    LEFT JOIN LATERAL (
      SELECT l.id, l.account_id FROM legal_entities l
      WHERE l.account_id = e.account_id
        AND (l.id = ch.legal_entity_id
             OR (ch.legal_entity_id IS NULL AND (SELECT count(*) FROM legal_entities o WHERE o.account_id = e.account_id) = 1))
    ) le ON true`;
}

/** Totals per provider, legal entity and currency over the range, unattributed lines included. */
export async function bookTotals(db: Database, range: BookRange): Promise<BookTotal[]> {
  const rows = await db.$queryRaw<
    Array<{
      provider: string;
      legal_entity_id: string | null;
      legal_entity_account_id: string | null;
      currency: string;
      gross: bigint;
      refunded: bigint;
      fee: bigint;
      lines: bigint;
    }>
  >(Prisma.sql`
    SELECT provider, legal_entity_id, legal_entity_account_id, currency,
           sum(gross_amount)::bigint AS gross, sum(refunded_amount)::bigint AS refunded,
           sum(fee_amount)::bigint AS fee, count(*)::bigint AS lines
    FROM (${attributedLines(range)}) attributed
    GROUP BY provider, legal_entity_id, legal_entity_account_id, currency
    ORDER BY provider, legal_entity_id, currency`);
  return rows.map((row) => ({
    provider: row.provider,
    legalEntityId: row.legal_entity_id,
    accountId: row.legal_entity_account_id,
    currency: row.currency,
    grossAmount: exactNumber(row.gross, 'gross'),
    refundedAmount: exactNumber(row.refunded, 'refunded'),
    feeAmount: exactNumber(row.fee, 'fee'),
    lines: exactNumber(row.lines, 'lines'),
  }));
}

const PAGE = 2_000;

/**
 * The lines of one provider, legal entity and currency, oldest first, read a page at a time
 * (keyset on time and provider id) so a busy day never sits in memory whole.
 */
export async function* bookLines(
  db: Database,
  range: BookRange & { provider: string; legalEntityId: string; currency: string },
): AsyncGenerator<BookLine> {
  // The time as PostgreSQL writes it, so the keyset keeps its microseconds (a Date would not).
  let after: { at: string; reference: string } | undefined;
  for (;;) {
    const keyset = after
      ? Prisma.sql`AND (transacted_at, provider_reference) > (${after.at}::timestamptz, ${after.reference})`
      : Prisma.empty;
    const rows = await db.$queryRaw<
      Array<{
        kind: EntryKind;
        provider: string;
        provider_reference: string;
        provider_charge_id: string;
        transacted_at: Date;
        currency: string;
        gross_amount: number;
        refunded_amount: number;
        fee_amount: number;
        payment_id: string | null;
        invoice_id: string | null;
        channel_id: string | null;
        refund_id: string | null;
        legal_entity_id: string | null;
        reconciliation: Reconciliation;
        transacted_at_key: string;
      }>
    >(Prisma.sql`
      SELECT *, transacted_at::text AS transacted_at_key FROM (${attributedLines(range)}) attributed
      WHERE legal_entity_id = ${range.legalEntityId} AND currency = ${range.currency} ${keyset}
      ORDER BY transacted_at, provider_reference
      LIMIT ${PAGE}`);
    for (const row of rows) {
      yield {
        kind: row.kind,
        provider: row.provider,
        providerReference: row.provider_reference,
        providerChargeId: row.provider_charge_id,
        transactedAt: row.transacted_at,
        currency: row.currency,
        grossAmount: row.gross_amount,
        refundedAmount: row.refunded_amount,
        feeAmount: row.fee_amount,
        adjustmentAmount: 0,
        paymentId: row.payment_id,
        invoiceId: row.invoice_id,
        channelId: row.channel_id,
        refundId: row.refund_id,
        legalEntityId: row.legal_entity_id,
        reconciliation: row.reconciliation,
      };
    }
    const last = rows[rows.length - 1];
    if (rows.length < PAGE || !last) return;
    after = { at: last.transacted_at_key, reference: last.provider_reference };
  }
}
