import { randomBytes } from 'node:crypto';

/**
 * Stripe objects as the API returns them for payout reconciliation (a Payout, and its balance
 * transactions listed with `expand[]=data.source`), shaped after Stripe's API reference and
 * stripe-mock's fixtures, for the tests of Stripe settlements. Amounts follow Stripe's rules: a
 * transaction's net is its amount less its fee, and an automatic payout pays out the net of its
 * transactions.
 */

export type StripeObject = Record<string, unknown> & { id: string };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function stripeId(prefix: string): string {
  return `${prefix}_${[...randomBytes(24)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('')}`;
}

/** Seconds since the epoch of an ISO instant. */
export function seconds(at: string): number {
  return Math.floor(new Date(at).getTime() / 1000);
}

export function stripeCharge(c: { amount: number; currency: string; paymentIntent: string | null; at: string }): StripeObject {
  const id = stripeId('ch');
  return {
    id,
    object: 'charge',
    amount: c.amount,
    amount_captured: c.amount,
    amount_refunded: 0,
    balance_transaction: null,
    captured: true,
    created: seconds(c.at),
    currency: c.currency,
    customer: stripeId('cus'),
    livemode: false,
    metadata: {},
    paid: true,
    payment_intent: c.paymentIntent,
    payment_method: stripeId('pm'),
    refunded: false,
    status: 'succeeded',
  };
}

export function stripeRefund(r: { charge: StripeObject; amount: number; at: string; status?: string }): StripeObject {
  return {
    id: stripeId('re'),
    object: 'refund',
    amount: r.amount,
    balance_transaction: null,
    charge: r.charge.id,
    created: seconds(r.at),
    currency: r.charge.currency,
    metadata: {},
    payment_intent: r.charge.payment_intent,
    reason: null,
    status: r.status ?? 'succeeded',
  };
}

export function stripeDispute(d: { charge: StripeObject; amount: number; at: string }): StripeObject {
  return {
    id: stripeId('du'),
    object: 'dispute',
    amount: d.amount,
    charge: d.charge.id,
    created: seconds(d.at),
    currency: d.charge.currency,
    livemode: false,
    payment_intent: d.charge.payment_intent,
    reason: 'fraudulent',
    status: 'lost',
  };
}

/**
 * A balance transaction. `amount` and `currency` are the balance's (a charge in another currency
 * is converted: `exchange_rate` says by what).
 */
export function balanceTransaction(t: {
  type: string;
  amount: number;
  fee?: number;
  currency: string;
  at: string;
  source: StripeObject | string | null;
  exchangeRate?: number | null;
  reportingCategory?: string;
}): StripeObject {
  const fee = t.fee ?? 0;
  return {
    id: stripeId('txn'),
    object: 'balance_transaction',
    amount: t.amount,
    available_on: seconds(t.at) + 2 * 86_400,
    balance_type: 'payments',
    created: seconds(t.at),
    currency: t.currency,
    description: null,
    exchange_rate: t.exchangeRate ?? null,
    fee,
    fee_details: fee ? [{ amount: fee, application: null, currency: t.currency, description: 'Stripe processing fees', type: 'stripe_fee' }] : [],
    net: t.amount - fee,
    reporting_category: t.reportingCategory ?? t.type,
    source: t.source,
    status: 'available',
    type: t.type,
  };
}

export interface PaidOut {
  payout: StripeObject & { amount: number; arrival_date: number; currency: string };
  /** The transactions Stripe lists for the payout, its own last. */
  transactions: StripeObject[];
}

/**
 * An automatic payout of `transactions`, for their net, arriving at `arrival`; the list Stripe
 * gives for it also holds the payout's own transaction.
 */
export function payoutOf(p: {
  transactions: StripeObject[];
  currency: string;
  arrival: string;
  status?: string;
  automatic?: boolean;
  reconciliationStatus?: string;
}): PaidOut {
  const id = stripeId('po');
  const amount = p.transactions.reduce((sum, transaction) => sum + (transaction.net as number), 0);
  const created = seconds(p.arrival) - 2 * 86_400;
  const own = { ...balanceTransaction({ type: 'payout', amount: -amount, currency: p.currency, at: new Date(created * 1000).toISOString(), source: id }), reporting_category: 'payout' };
  const payout = {
    id,
    object: 'payout',
    amount,
    application_fee: null,
    application_fee_amount: null,
    arrival_date: seconds(p.arrival),
    automatic: p.automatic ?? true,
    balance_transaction: own.id,
    created,
    currency: p.currency,
    description: 'STRIPE PAYOUT',
    destination: stripeId('ba'),
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    livemode: false,
    metadata: {},
    method: 'standard',
    original_payout: null,
    reconciliation_status: p.reconciliationStatus ?? 'completed',
    reversed_by: null,
    source_type: 'card',
    statement_descriptor: null,
    status: p.status ?? 'paid',
    type: 'bank_account',
  };
  return { payout, transactions: [...p.transactions, own] };
}
