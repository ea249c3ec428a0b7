import type { Prisma } from '../../prisma/client';

type Db = Prisma.TransactionClient;

/** One (customer, currency) whose stored balance disagrees with its ledger. */
export interface LedgerDisagreement {
  customerId: string;
  currency: string;
  storedBalance: number | null;
  ledgerSum: number;
  storedLastSequence: number | null;
  ledgerCount: number;
  /** Rows whose endingBalance is not the previous row's plus their amount, or whose sequence skips. */
  brokenLinks: number;
}

/**
 * Compares every stored balance of the account (or of one customer) with its ledger: the sum of
 * the amounts, the number of rows, and the endingBalance chain. The running balance is a cache
 * of the ledger, kept only because appends lock it; this says where the two disagree (the
 * operator command `check-balances`, and the tests after concurrent work).
 */
export async function findLedgerDisagreements(db: Db, filter: { accountId: string; customerId?: string }): Promise<LedgerDisagreement[]> {
  const customer = filter.customerId ?? null;
  return db.$queryRaw<LedgerDisagreement[]>`
    WITH chain AS (
      SELECT customer_id, currency, amount, sequence, ending_balance,
        LAG(ending_balance) OVER w AS previous_ending, LAG(sequence) OVER w AS previous_sequence
      FROM customer_balance_transactions
      WHERE account_id = ${filter.accountId} AND (${customer}::text IS NULL OR customer_id = ${customer})
      WINDOW w AS (PARTITION BY customer_id, currency ORDER BY sequence)
    ), ledgers AS (
      SELECT customer_id, currency, SUM(amount)::int AS ledger_sum, COUNT(*)::int AS ledger_count,
        COUNT(*) FILTER (WHERE ending_balance <> COALESCE(previous_ending, 0) + amount
          OR sequence <> COALESCE(previous_sequence, 0) + 1)::int AS broken_links
      FROM chain GROUP BY customer_id, currency
    ), balances AS (
      SELECT customer_id, currency, balance, last_sequence FROM customer_balances
      WHERE account_id = ${filter.accountId} AND (${customer}::text IS NULL OR customer_id = ${customer})
    )
    SELECT COALESCE(l.customer_id, b.customer_id) AS "customerId", COALESCE(l.currency, b.currency) AS currency,
      b.balance AS "storedBalance", COALESCE(l.ledger_sum, 0) AS "ledgerSum",
      b.last_sequence AS "storedLastSequence", COALESCE(l.ledger_count, 0) AS "ledgerCount",
      COALESCE(l.broken_links, 0) AS "brokenLinks"
    FROM ledgers l FULL JOIN balances b ON b.customer_id = l.customer_id AND b.currency = l.currency
    WHERE b.balance IS DISTINCT FROM l.ledger_sum OR b.last_sequence IS DISTINCT FROM l.ledger_count OR COALESCE(l.broken_links, 0) > 0
    ORDER BY 1, 2`;
}
