import type Stripe from 'stripe';
import type { BalanceTransactionFacts, SourceFacts } from '../../domain/stripe-payout-lines';
import { arrivalDateRange, type PayoutFacts } from '../../domain/stripe-payouts';

/**
 * Stripe's books of a payout, read with the account's client (docs/settlements.md, "Settlements
 * from Stripe"): the payouts arriving in a run's window, and the balance transactions each paid
 * out, their sources expanded so charges and refunds name their PaymentIntent. Reads only: a
 * request cut off is simply asked again, a few times, by the SDK.
 */

/** Stripe's largest page. */
const PAGE = 100;
const READ_OPTIONS: Stripe.RequestOptions = { maxNetworkRetries: 2 };

/** Every payout of the account arriving in the window of the run of `day`, newest first. */
export async function* payoutsArriving(client: Stripe, day: string): AsyncGenerator<PayoutFacts> {
  for await (const payout of client.payouts.list({ arrival_date: arrivalDateRange(day), limit: PAGE }, READ_OPTIONS)) {
    yield {
      id: payout.id,
      amount: payout.amount,
      currency: payout.currency,
      arrival_date: payout.arrival_date,
      automatic: payout.automatic,
      status: payout.status,
      reconciliation_status: payout.reconciliation_status,
      balance_transaction: payout.balance_transaction,
    };
  }
}

/** The balance transactions Stripe paid out in an automatic payout, the payout's own among them. */
export async function* payoutTransactions(client: Stripe, payoutId: string): AsyncGenerator<BalanceTransactionFacts> {
  for await (const transaction of client.balanceTransactions.list({ payout: payoutId, expand: ['data.source'], limit: PAGE }, READ_OPTIONS)) {
    yield {
      id: transaction.id,
      type: transaction.type,
      amount: transaction.amount,
      fee: transaction.fee,
      net: transaction.net,
      currency: transaction.currency,
      created: transaction.created,
      // Whatever object it is (Charge, Refund, Dispute, Payout, ...), only the fields SourceFacts names are read.
      source: transaction.source as string | SourceFacts | null,
    };
  }
}
