import { MAX_INVOICE_AMOUNT } from './invoice-amounts';

/** What the customer balance does to an invoice at finalization (docs/customer-balance.md). */
export interface BalanceSettlement {
  /**
   * Balance taken into the invoice: positive when credit lowered what is due, negative when a
   * debit raised it. The ledger records it as APPLIED_TO_INVOICE with this very amount.
   */
  balanceApplied: number;
  /** A negative total's magnitude, given to the customer as credit (CREDITED_FROM_INVOICE of −this). */
  balanceCredited: number;
  /** total − balanceApplied, never below 0. */
  amountDue: number;
}

/**
 * The rule, given the invoice total and the customer's balance in its currency (negative =
 * credit): a negative total owes nothing and credits its magnitude; otherwise credit pays as much
 * of the total as it covers, and a debit is added to the total (no further than an invoice
 * amount can go: the rest stays on the balance).
 */
export function balanceAtFinalization(total: number, balance: number): BalanceSettlement {
  if (total < 0) return { balanceApplied: 0, balanceCredited: -total, amountDue: 0 };
  const balanceApplied = balance < 0 ? Math.min(-balance, total) : -Math.min(balance, MAX_INVOICE_AMOUNT - total);
  return { balanceApplied, balanceCredited: 0, amountDue: total - balanceApplied };
}
