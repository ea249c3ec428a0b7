import { addDays, startOfDay, utcDayOf } from './settlement-dates';

/**
 * Which Stripe payouts a settlement run takes (docs/settlements.md, "Settlements from Stripe").
 * A payout is settled once it has reached the bank and Stripe has said which of its balance
 * transactions it paid out; that can come some days after its arrival date, so each run looks
 * back over a week of arrival dates and settles what became ready since.
 */

/** The provider name of the settlements made from Stripe payouts. */
export const STRIPE_PROVIDER = 'stripe';

/** Arrival days a run looks at, its own day included: the Schedule's catch-up window. */
export const PAYOUT_LOOKBACK_DAYS = 7;

/** Connected accounts whose payouts one activity reads. */
export const STRIPE_ACCOUNTS_PER_BATCH = 50;

/** The fields of Stripe's Payout object the settlement reads. */
export interface PayoutFacts {
  id: string;
  /** What reached the bank, minor units of `currency`. */
  amount: number;
  currency: string;
  /** Seconds since the epoch. */
  arrival_date: number;
  /** False for a payout requested by hand, whose transactions Stripe does not list. */
  automatic: boolean;
  status: string;
  /** `completed` once Stripe lists the balance transactions the payout paid out. */
  reconciliation_status?: string;
  /** The payout's own balance transaction, listed among its transactions. */
  balance_transaction: string | { id: string } | null;
}

/**
 * - `READY`: paid and reconciled, settled now;
 * - `NOT_YET`: still on its way or not reconciled, taken by a later run of its window;
 * - `RETURNED`: failed or canceled, its money back in the Stripe balance for a later payout;
 * - `MANUAL`: requested by hand, Stripe cannot say what it paid out, not settled.
 */
export type PayoutReadiness = 'READY' | 'NOT_YET' | 'RETURNED' | 'MANUAL';

export function payoutReadiness(payout: PayoutFacts): PayoutReadiness {
  if (payout.status === 'failed' || payout.status === 'canceled') return 'RETURNED';
  if (!payout.automatic) return 'MANUAL';
  return payout.status === 'paid' && payout.reconciliation_status === 'completed' ? 'READY' : 'NOT_YET';
}

/** The arrival days a run of `day` looks at, both inclusive. */
export function payoutWindow(day: string): { firstDay: string; lastDay: string } {
  return { firstDay: addDays(day, -(PAYOUT_LOOKBACK_DAYS - 1)), lastDay: day };
}

/** The window as Stripe's `arrival_date` range filter: seconds, `lt` exclusive. */
export function arrivalDateRange(day: string): { gte: number; lt: number } {
  const { firstDay, lastDay } = payoutWindow(day);
  return { gte: startOfDay(firstDay).getTime() / 1000, lt: startOfDay(addDays(lastDay, 1)).getTime() / 1000 };
}

/** The settlement date of a payout: the UTC day it arrives at the bank. */
export function payoutSettlementDay(payout: Pick<PayoutFacts, 'arrival_date'>): string {
  return utcDayOf(new Date(payout.arrival_date * 1000));
}

/** A payout the run of `day` looks at for the last time: a later run's window no longer holds it. */
export function leavesWindow(payout: Pick<PayoutFacts, 'arrival_date'>, day: string): boolean {
  return payoutSettlementDay(payout) <= payoutWindow(day).firstDay;
}
