import { netOf } from '../../domain/settlement-lines';
import { checkTransaction, compareLines, payoutFigures, payoutLine, PayoutDoesNotAddUp, type BalanceTransactionFacts, type PayoutLine } from '../../domain/stripe-payout-lines';
import { payoutLegalEntity, reconcileLine, type OurPayment, type OurRefund } from '../../domain/stripe-payout-reconciliation';
import { arrivalDateRange, leavesWindow, PAYOUT_LOOKBACK_DAYS, payoutReadiness, payoutSettlementDay, type PayoutFacts } from '../../domain/stripe-payouts';
import {
  balanceTransaction,
  payoutOf,
  seconds,
  stripeCharge,
  stripeDispute,
  stripeId,
  stripeRefund,
  type PaidOut,
  type StripeObject,
} from '../support/stripe-payout-objects';

/**
 * A week of an EUR account's payments paid out on 2026-03-12: two charges (one converted from
 * USD), a partial refund, a refund that failed and came back, a lost dispute with its fee, and a
 * Radar fee Stripe charged apart.
 */
function aPayout() {
  const intentA = stripeId('pi');
  const intentUsd = stripeId('pi');
  const chargeA = stripeCharge({ amount: 10_000, currency: 'eur', paymentIntent: intentA, at: '2026-03-09T10:00:00Z' });
  const chargeUsd = stripeCharge({ amount: 5_000, currency: 'usd', paymentIntent: intentUsd, at: '2026-03-09T11:00:00Z' });
  const refund = stripeRefund({ charge: chargeA, amount: 1_000, at: '2026-03-10T08:00:00Z' });
  const failedRefund = stripeRefund({ charge: chargeA, amount: 500, at: '2026-03-10T09:00:00Z', status: 'failed' });
  const dispute = stripeDispute({ charge: chargeUsd, amount: 4_610, at: '2026-03-10T12:00:00Z' });
  const transactions = [
    balanceTransaction({ type: 'charge', amount: 10_000, fee: 320, currency: 'eur', at: '2026-03-09T10:00:00Z', source: chargeA }),
    balanceTransaction({ type: 'charge', amount: 4_610, fee: 164, currency: 'eur', at: '2026-03-09T11:00:00Z', source: chargeUsd, exchangeRate: 0.922 }),
    balanceTransaction({ type: 'refund', amount: -1_000, currency: 'eur', at: '2026-03-10T08:00:00Z', source: refund }),
    balanceTransaction({ type: 'refund', amount: -500, currency: 'eur', at: '2026-03-10T09:00:00Z', source: failedRefund }),
    balanceTransaction({ type: 'refund_failure', amount: 500, currency: 'eur', at: '2026-03-10T10:00:00Z', source: failedRefund }),
    balanceTransaction({ type: 'adjustment', amount: -4_610, fee: 1_500, currency: 'eur', at: '2026-03-10T12:00:00Z', source: dispute, reportingCategory: 'dispute' }),
    balanceTransaction({ type: 'stripe_fee', amount: -250, currency: 'eur', at: '2026-03-10T23:59:59Z', source: null, reportingCategory: 'fee' }),
  ];
  const paid = payoutOf({ transactions, currency: 'eur', arrival: '2026-03-12T00:00:00Z' });
  return { paid, intentA, intentUsd, chargeA, chargeUsd, refund, failedRefund, dispute };
}

const facts = (paid: PaidOut) => ({
  payout: paid.payout as unknown as PayoutFacts,
  transactions: paid.transactions as unknown as BalanceTransactionFacts[],
});

function linesOf(paid: PaidOut): PayoutLine[] {
  const { payout, transactions } = facts(paid);
  return transactions.flatMap((transaction) => {
    checkTransaction(payout, transaction);
    const line = payoutLine(payout, transaction);
    return line ? [line] : [];
  });
}

const sumOf = (transactions: StripeObject[], types: string[], field: 'amount' | 'fee') =>
  transactions.filter((t) => types.includes(t.type as string)).reduce((sum, t) => sum + (t[field] as number), 0);

describe('a Stripe payout as settlement lines', () => {
  it('makes every transaction but the payout itself a line, whose parts net to what Stripe says', () => {
    const { paid } = aPayout();
    const lines = linesOf(paid);
    const listed = paid.transactions.filter((t) => t.type !== 'payout');
    expect(lines.map((line) => line.providerTransactionId)).toEqual(listed.map((t) => t.id));
    expect(lines.map((line) => line.kind)).toEqual(['CHARGE', 'CHARGE', 'REFUND', 'REFUND', 'REFUND', 'ADJUSTMENT', 'FEE']);
    expect(lines.map(netOf)).toEqual(listed.map((t) => t.net));
    expect(lines.every((line) => line.currency === 'EUR')).toBe(true);
  });

  it('names the PaymentIntent as the charge, the source as the reference, and keeps what the customer was charged', () => {
    const { paid, intentA, intentUsd, chargeA, chargeUsd, refund, dispute } = aPayout();
    const lines = linesOf(paid);
    expect(lines.slice(0, 3).map((l) => [l.providerReference, l.providerChargeId, l.original])).toEqual([
      [chargeA.id, intentA, { amount: 10_000, currency: 'EUR' }],
      [chargeUsd.id, intentUsd, { amount: 5_000, currency: 'USD' }],
      [refund.id, intentA, { amount: 1_000, currency: 'EUR' }],
    ]);
    expect([lines[5]!.providerReference, lines[5]!.providerChargeId, lines[5]!.original]).toEqual([dispute.id, intentUsd, null]);
    // A fee with no source is named by its transaction.
    expect([lines[6]!.providerReference, lines[6]!.providerChargeId]).toEqual([paid.transactions[6]!.id, null]);
    expect(lines.map((line) => line.reversesRefund)).toEqual([false, false, false, false, true, false, false]);
  });

  it('adds the lines up to the payout, each part from the transactions of its kind', () => {
    const { paid } = aPayout();
    const figures = payoutFigures(facts(paid).payout, linesOf(paid));
    const t = paid.transactions;
    expect(figures).toEqual({
      grossAmount: sumOf(t, ['charge'], 'amount'),
      refundedAmount: -sumOf(t, ['refund', 'refund_failure'], 'amount'),
      feeAmount: sumOf(t, ['charge', 'refund', 'adjustment'], 'fee') - sumOf(t, ['stripe_fee'], 'amount'),
      adjustmentAmount: sumOf(t, ['adjustment'], 'amount'),
      amount: paid.payout.amount,
      currency: 'EUR',
      periodFrom: '2026-03-09',
      periodTo: '2026-03-10',
    });
    expect(payoutSettlementDay(facts(paid).payout)).toBe('2026-03-12');
  });

  it('refuses a payout whose transactions do not come to it, or are in another currency, or whose net is not amount less fee', () => {
    const { paid } = aPayout();
    const { payout } = facts(paid);
    const short = linesOf({ ...paid, transactions: paid.transactions.slice(1) });
    expect(() => payoutFigures(payout, short)).toThrow(PayoutDoesNotAddUp);
    expect(() => payoutFigures(payout, [])).toThrow(PayoutDoesNotAddUp);
    const usd = { ...paid.transactions[0]!, currency: 'usd' } as unknown as BalanceTransactionFacts;
    expect(() => checkTransaction(payout, usd)).toThrow(/is in usd/);
    const wrongNet = { ...paid.transactions[0]!, net: 1 } as unknown as BalanceTransactionFacts;
    expect(() => checkTransaction(payout, wrongNet)).toThrow(PayoutDoesNotAddUp);
  });

  it('orders lines oldest first, then by reference', () => {
    const { paid } = aPayout();
    const lines = linesOf(paid);
    const sorted = [...lines].reverse().sort(compareLines);
    expect(sorted.map((line) => line.transactedAt.getTime())).toEqual([...lines.map((line) => line.transactedAt.getTime())].sort((a, b) => a - b));
  });
});

describe('which payouts a run settles', () => {
  const payout = (over: Partial<PayoutFacts>): PayoutFacts => ({
    id: 'po_1',
    amount: 100,
    currency: 'eur',
    arrival_date: seconds('2026-03-12T00:00:00Z'),
    automatic: true,
    status: 'paid',
    reconciliation_status: 'completed',
    balance_transaction: 'txn_1',
    ...over,
  });

  it('settles paid, reconciled, automatic payouts; waits for the others; never settles returned or manual ones', () => {
    expect(payoutReadiness(payout({}))).toBe('READY');
    expect(payoutReadiness(payout({ status: 'in_transit' }))).toBe('NOT_YET');
    expect(payoutReadiness(payout({ reconciliation_status: 'in_progress' }))).toBe('NOT_YET');
    expect(payoutReadiness(payout({ status: 'failed' }))).toBe('RETURNED');
    expect(payoutReadiness(payout({ status: 'canceled', automatic: false }))).toBe('RETURNED');
    expect(payoutReadiness(payout({ automatic: false, reconciliation_status: 'not_applicable' }))).toBe('MANUAL');
  });

  it('looks back over the week up to the run day, and a payout for the last time on the window’s first day', () => {
    const day = '2026-03-12';
    const range = arrivalDateRange(day);
    expect((range.lt - range.gte) / 86_400).toBe(PAYOUT_LOOKBACK_DAYS);
    expect(range.lt).toBe(seconds('2026-03-13T00:00:00Z'));
    expect(leavesWindow(payout({ arrival_date: range.gte }), day)).toBe(true);
    expect(leavesWindow(payout({ arrival_date: range.gte + 86_400 }), day)).toBe(false);
  });
});

describe('a payout against our records', () => {
  const { paid, intentA, intentUsd } = aPayout();
  const lines = linesOf(paid);
  const [chargeA, chargeUsd, refund, failing, failed, dispute, fee] = lines as [PayoutLine, PayoutLine, PayoutLine, PayoutLine, PayoutLine, PayoutLine, PayoutLine];
  const paymentA: OurPayment = { id: 'pay_a', invoiceId: 'inv_a', channelId: 'chn_a', status: 'SUCCEEDED', amount: 10_000, currency: 'EUR', fee: chargeA.feeAmount, channelLegalEntityId: 'le_a' };
  const paymentUsd: OurPayment = { id: 'pay_u', invoiceId: null, channelId: 'chn_a', status: 'SUCCEEDED', amount: 5_000, currency: 'USD', fee: 0, channelLegalEntityId: null };
  const ourRefund: OurRefund = { id: 'ref_1', paymentId: 'pay_a', amount: 1_000, status: 'SUCCEEDED' };

  it('matches a charge on status, amount and currency charged, and the fee when the charge settled in its own currency', () => {
    expect(reconcileLine(chargeA, { payment: paymentA }, null)).toMatchObject({ paymentId: 'pay_a', invoiceId: 'inv_a', channelId: 'chn_a', legalEntityId: 'le_a', reconciliation: 'MATCHED' });
    // Converted from USD: Stripe's fee is in EUR, ours cannot be compared.
    expect(reconcileLine(chargeUsd, { payment: paymentUsd }, 'le_only')).toMatchObject({ legalEntityId: 'le_only', reconciliation: 'MATCHED' });
    expect(reconcileLine(chargeA, { payment: { ...paymentA, fee: chargeA.feeAmount + 1 } }, null).reconciliation).toBe('PAYMENT_MISMATCH');
    expect(reconcileLine(chargeA, { payment: { ...paymentA, amount: 9_999 } }, null).reconciliation).toBe('PAYMENT_MISMATCH');
    expect(reconcileLine(chargeA, { payment: { ...paymentA, status: 'REQUIRES_ACTION' } }, null).reconciliation).toBe('PAYMENT_MISMATCH');
    expect(reconcileLine(chargeA, {}, 'le_only')).toMatchObject({ paymentId: null, legalEntityId: null, reconciliation: 'UNKNOWN_PAYMENT' });
    expect(chargeA.providerChargeId).toBe(intentA);
  });

  it('matches a refund on its payment, amount and status; a refund given back expects ours FAILED', () => {
    expect(reconcileLine(refund, { payment: paymentA, refund: ourRefund }, null)).toMatchObject({ refundId: 'ref_1', reconciliation: 'MATCHED' });
    expect(reconcileLine(refund, { payment: paymentA }, null).reconciliation).toBe('UNKNOWN_REFUND');
    expect(reconcileLine(refund, {}, null).reconciliation).toBe('UNKNOWN_PAYMENT');
    expect(reconcileLine(refund, { payment: paymentA, refund: { ...ourRefund, amount: 900 } }, null).reconciliation).toBe('REFUND_MISMATCH');
    expect(reconcileLine(refund, { payment: paymentA, refund: { ...ourRefund, paymentId: 'pay_other' } }, null).reconciliation).toBe('REFUND_MISMATCH');
    const ourFailed: OurRefund = { id: 'ref_2', paymentId: 'pay_a', amount: 500, status: 'FAILED' };
    expect(reconcileLine(failed, { payment: paymentA, refund: ourFailed }, null).reconciliation).toBe('MATCHED');
    expect(reconcileLine(failing, { payment: paymentA, refund: ourFailed }, null).reconciliation).toBe('REFUND_MISMATCH');
  });

  it('lists Stripe’s own fees and adjustments as PROVIDER_ONLY, naming our payment when the line is about one', () => {
    expect(reconcileLine(dispute, { payment: paymentUsd }, null)).toMatchObject({ paymentId: 'pay_u', reconciliation: 'PROVIDER_ONLY' });
    expect(dispute.providerChargeId).toBe(intentUsd);
    expect(reconcileLine(fee, {}, 'le_only')).toMatchObject({ paymentId: null, legalEntityId: null, reconciliation: 'PROVIDER_ONLY' });
  });

  it('gives the payout to the one legal entity its payments belong to, else to none', () => {
    const line = (paymentId: string | null, legalEntityId: string | null) => ({ paymentId, legalEntityId });
    expect(payoutLegalEntity([line('pay_a', 'le_a'), line(null, null), line('pay_b', 'le_a')], null)).toEqual({ legalEntityId: 'le_a' });
    expect(payoutLegalEntity([line('pay_a', 'le_a'), line('pay_b', 'le_b')], null)).toEqual({ legalEntityId: null, reason: 'SEVERAL' });
    expect(payoutLegalEntity([line('pay_a', 'le_a'), line('pay_b', null)], null)).toEqual({ legalEntityId: null, reason: 'NONE' });
    expect(payoutLegalEntity([line(null, null)], 'le_only')).toEqual({ legalEntityId: 'le_only' });
    expect(payoutLegalEntity([line(null, null)], null)).toEqual({ legalEntityId: null, reason: 'NONE' });
  });
});
