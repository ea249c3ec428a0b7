import { netOf, type SettlementLineKind, type SettlementParts } from './settlement-lines';
import { utcDayOf } from './settlement-dates';
import type { PayoutFacts } from './stripe-payouts';

/**
 * A Stripe payout's balance transactions as settlement lines (docs/settlements.md, "Settlements
 * from Stripe"). Every transaction Stripe lists is a line, whatever its type: none is dropped,
 * so the lines add up to what reached the bank, or the payout is not settled at all.
 */

/** The fields of Stripe's BalanceTransaction the settlement reads, `source` expanded. */
export interface BalanceTransactionFacts {
  id: string;
  type: string;
  /** Signed, minor units of the balance currency, before the fee. */
  amount: number;
  fee: number;
  net: number;
  currency: string;
  /** Seconds since the epoch. */
  created: number;
  source: string | SourceFacts | null;
}

/** The fields read of a transaction's source: a Charge, Refund, Dispute, Payout, ... */
export interface SourceFacts {
  id: string;
  object?: string;
  /** A Charge's or Refund's amount in the customer's currency. */
  amount?: number;
  currency?: string;
  charge?: string | { id: string } | null;
  payment_intent?: string | { id: string } | null;
}

export interface PayoutLine extends SettlementParts {
  kind: SettlementLineKind;
  providerTransactionId: string;
  /** The object the line is about (`ch_…`, `re_…`, `du_…`), else the transaction itself. */
  providerReference: string;
  /** The PaymentIntent (what our payments record as their charge), else the Charge; null for a line about no charge. */
  providerChargeId: string | null;
  transactedAt: Date;
  /** ISO 4217, upper case, the payout's. */
  currency: string;
  /** What Stripe charged or refunded in the customer's currency: compared with our payment or refund. */
  original: { amount: number; currency: string } | null;
  /** A refund line that gives back a refund which failed: our refund is expected FAILED. */
  reversesRefund: boolean;
}

/** Thrown when a payout's transactions are not all in its currency or do not add up to it: it is not settled. */
export class PayoutDoesNotAddUp extends Error {
  constructor(payoutId: string, detail: string) {
    super(`Stripe payout ${payoutId} does not add up: ${detail}`);
    this.name = 'PayoutDoesNotAddUp';
  }
}

const CHARGES = new Set(['charge', 'payment']);
const REFUNDS = new Set(['refund', 'payment_refund']);
const REFUND_REVERSALS = new Set(['refund_failure', 'payment_failure_refund']);
/** Stripe's own fees, charged apart from any payment (Radar, Billing, currency conversion, tax on fees). */
const FEES = new Set(['stripe_fee', 'stripe_fx_fee', 'tax_fee']);

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : value.id;
}

function kindOf(type: string): SettlementLineKind {
  if (CHARGES.has(type)) return 'CHARGE';
  if (REFUNDS.has(type) || REFUND_REVERSALS.has(type)) return 'REFUND';
  if (FEES.has(type)) return 'FEE';
  return 'ADJUSTMENT';
}

/** The parts of a transaction of `kind`, so that their net is the transaction's (amount − fee). */
function partsOf(kind: SettlementLineKind, amount: number, fee: number): SettlementParts {
  switch (kind) {
    case 'CHARGE':
      return { grossAmount: amount, refundedAmount: 0, feeAmount: fee, adjustmentAmount: 0 };
    case 'REFUND':
      return { grossAmount: 0, refundedAmount: -amount, feeAmount: fee, adjustmentAmount: 0 };
    case 'FEE':
      return { grossAmount: 0, refundedAmount: 0, feeAmount: fee - amount, adjustmentAmount: 0 };
    case 'ADJUSTMENT':
      return { grossAmount: 0, refundedAmount: 0, feeAmount: fee, adjustmentAmount: amount };
  }
}

/** Is this the payout's own transaction, listed among those it paid out? */
function isPayoutItself(payout: PayoutFacts, transaction: BalanceTransactionFacts): boolean {
  return transaction.id === idOf(payout.balance_transaction) || (transaction.type === 'payout' && idOf(transaction.source) === payout.id);
}

/** The line of one transaction, or null for the payout's own. */
export function payoutLine(payout: PayoutFacts, transaction: BalanceTransactionFacts): PayoutLine | null {
  if (isPayoutItself(payout, transaction)) return null;
  const kind = kindOf(transaction.type);
  const source = typeof transaction.source === 'object' ? transaction.source : null;
  const paymentIntent = idOf(source?.payment_intent);
  const charge = source?.object === 'charge' ? source.id : idOf(source?.charge);
  const compared = (kind === 'CHARGE' || kind === 'REFUND') && source && typeof source.amount === 'number' && typeof source.currency === 'string';
  return {
    kind,
    ...partsOf(kind, transaction.amount, transaction.fee),
    providerTransactionId: transaction.id,
    providerReference: idOf(transaction.source) ?? transaction.id,
    providerChargeId: paymentIntent ?? charge,
    transactedAt: new Date(transaction.created * 1000),
    currency: transaction.currency.toUpperCase(),
    original: compared ? { amount: source.amount!, currency: source.currency!.toUpperCase() } : null,
    reversesRefund: REFUND_REVERSALS.has(transaction.type),
  };
}

/** Checks one transaction before it becomes a line: in the payout's currency, its net what its amount and fee say. */
export function checkTransaction(payout: PayoutFacts, transaction: BalanceTransactionFacts): void {
  if (transaction.currency.toLowerCase() !== payout.currency.toLowerCase()) {
    throw new PayoutDoesNotAddUp(payout.id, `${transaction.id} is in ${transaction.currency}, the payout in ${payout.currency}`);
  }
  if (![transaction.amount, transaction.fee, transaction.net].every(Number.isSafeInteger) || transaction.net !== transaction.amount - transaction.fee) {
    throw new PayoutDoesNotAddUp(payout.id, `${transaction.id} has amount ${transaction.amount}, fee ${transaction.fee} and net ${transaction.net}`);
  }
}

/** Oldest first, by Stripe's time, then the object and the transaction: the order of the files. */
export function compareLines(a: PayoutLine, b: PayoutLine): number {
  return (
    a.transactedAt.getTime() - b.transactedAt.getTime() ||
    (a.providerReference < b.providerReference ? -1 : a.providerReference > b.providerReference ? 1 : 0) ||
    (a.providerTransactionId < b.providerTransactionId ? -1 : a.providerTransactionId > b.providerTransactionId ? 1 : 0)
  );
}

export interface PayoutFigures extends SettlementParts {
  /** gross − refunded − fee + adjustment: the payout's amount. */
  amount: number;
  currency: string;
  /** The UTC days of the oldest and newest line. */
  periodFrom: string;
  periodTo: string;
}

/** The settlement's figures from all the payout's lines; they must come to the payout's amount exactly. */
export function payoutFigures(payout: PayoutFacts, lines: readonly PayoutLine[]): PayoutFigures {
  if (lines.length === 0) throw new PayoutDoesNotAddUp(payout.id, 'Stripe listed no transactions for it');
  const parts: SettlementParts = { grossAmount: 0, refundedAmount: 0, feeAmount: 0, adjustmentAmount: 0 };
  let first = lines[0]!.transactedAt;
  let last = first;
  for (const line of lines) {
    parts.grossAmount += line.grossAmount;
    parts.refundedAmount += line.refundedAmount;
    parts.feeAmount += line.feeAmount;
    parts.adjustmentAmount += line.adjustmentAmount;
    if (line.transactedAt < first) first = line.transactedAt;
    if (line.transactedAt > last) last = line.transactedAt;
  }
  const amount = netOf(parts);
  if (!Object.values(parts).every(Number.isSafeInteger)) throw new PayoutDoesNotAddUp(payout.id, 'its sums are beyond exact arithmetic');
  if (amount !== payout.amount) throw new PayoutDoesNotAddUp(payout.id, `its ${lines.length} transactions come to ${amount}, the payout is ${payout.amount}`);
  return { ...parts, amount, currency: payout.currency.toUpperCase(), periodFrom: utcDayOf(first), periodTo: utcDayOf(last) };
}
