import { PRORATION_CREDIT_DESTINATIONS, type ProrationCreditDestination } from '../../domain/balance-transactions';
import type { Database } from '../../prisma/client';
import { findLedgerDisagreements, type LedgerDisagreement } from '../../services/customer-balance/ledger-check';

/** Where the account's proration credits go unless a subscriptions/update names it (docs/customer-balance.md). */
export async function setProrationCredit(db: Database, accountId: string, to: string) {
  if (!(PRORATION_CREDIT_DESTINATIONS as readonly string[]).includes(to)) throw new Error(`--to is one of ${PRORATION_CREDIT_DESTINATIONS.join(', ')}.`);
  const updated = await db.account.updateMany({ where: { id: accountId }, data: { prorationCredit: to as ProrationCreditDestination } });
  if (updated.count === 0) throw new Error(`Account ${accountId} does not exist.`);
  return { id: accountId, proration_credit: to };
}

/** Every customer balance of the account that disagrees with its ledger; none is the only right answer. */
export function checkBalances(db: Database, accountId: string): Promise<LedgerDisagreement[]> {
  return findLedgerDisagreements(db, { accountId });
}
