import { newId } from '../../domain/ids';
import { connectStripe } from '../../services/payments/providers/stripe/connection';
import { startStripeMock } from '../../scripts/stripe/stripe-mock';
import type { StripeEmulator } from '../../scripts/stripe/emulator-process';
import { usePlatform } from '../support/platform';
import { startStripePayoutBooks, type StripePayoutBooks } from '../support/stripe-payout-books';
import { balanceTransaction, payoutOf, seconds, stripeCharge, stripeDispute, stripeId, stripeRefund, type PaidOut, type StripeObject } from '../support/stripe-payout-objects';
import { download, moneyFlows, settle } from './fixtures';

/**
 * Stripe payouts settled by the nightly run (docs/settlements.md, "Settlements from Stripe"):
 * the account is connected to its payout books in front of stripe-mock, which must accept every
 * request the run sends (test/support/stripe-payout-books.ts says why localstripe cannot serve
 * them); our payments and refunds are the rows the Stripe charge path leaves.
 */

const platform = usePlatform();
let flows: ReturnType<typeof moneyFlows>;
let mock: StripeEmulator;
let books: StripePayoutBooks;

const SECRET_KEY = 'sk_test_payoutbooks0001';
const RUN_DAY = '2026-03-12';
const NEXT_DAY = '2026-03-13';

let leA: string;
let leB: string;

interface Ours {
  paymentId: string;
  invoiceId: string;
  intent: string;
  /** Our refund of it, and Stripe's. */
  refund?: { id: string; providerRefundId: string };
}

/** What the Stripe charge path leaves for a charged invoice: the payment, its PaymentIntent as its charge, Stripe's fee. */
async function stripePayment(channelId: string, amount: number, fee: number): Promise<Ours> {
  const customerId = await flows.customer(channelId);
  const invoice = await flows.openInvoice(customerId, { amount });
  const paymentId = newId('payment');
  const intent = stripeId('pi');
  const now = new Date();
  await platform.db.payment.create({
    data: {
      id: paymentId,
      accountId: platform.accountId,
      channelId,
      customerId,
      instrumentId: 'pi_stripe_card',
      invoiceId: invoice.id,
      idempotencyKey: paymentId,
      amount,
      currency: 'EUR',
      status: 'SUCCEEDED',
      provider: 'stripe',
      providerChargeId: intent,
      fee,
      attempts: [],
      createdAt: now,
      updatedAt: now,
    },
  });
  return { paymentId, invoiceId: invoice.id, intent };
}

async function stripeRefundOf(ours: Ours, amount: number): Promise<{ id: string; providerRefundId: string }> {
  const id = newId('refund');
  const providerRefundId = stripeId('re');
  const now = new Date();
  await platform.db.refund.create({
    data: { id, accountId: platform.accountId, invoiceId: ours.invoiceId, paymentId: ours.paymentId, amount, status: 'SUCCEEDED', provider: 'stripe', providerRefundId, idempotencyKey: `${id}/key`, createdAt: now, updatedAt: now },
  });
  return { id, providerRefundId };
}

/** A charge of our payment in Stripe's books, and its balance transaction. */
function charged(ours: Ours, amount: number, fee: number, at: string) {
  const charge = stripeCharge({ amount, currency: 'eur', paymentIntent: ours.intent, at });
  return { charge, transaction: balanceTransaction({ type: 'charge', amount, fee, currency: 'eur', at, source: charge }) };
}

function pay(paid: PaidOut): PaidOut {
  books.payouts.push(paid.payout);
  books.transactions.set(paid.payout.id, paid.transactions);
  return paid;
}

const payouts: Record<string, PaidOut> = {};
const ours: Record<string, Ours> = {};
const settledFirst = ['a1', 'a2', 'b'];

beforeAll(async () => {
  flows = moneyFlows(platform);
  const [one, two] = platform.channelIds;
  leA = await flows.legalEntity(one, 'Acme GmbH', 'DEU');
  leB = await flows.legalEntity(two, 'Acme SAS', 'FRA');
  mock = await startStripeMock();
  books = await startStripePayoutBooks(mock.url);
  await connectStripe(platform.db, platform.accountId, { secretKey: SECRET_KEY, webhookSecret: 'whsec_payoutbooks0001', apiBase: books.url, connectedBy: 'operator' }, new Date());

  ours.p1 = await stripePayment(one, 10_000, 320);
  ours.p2 = await stripePayment(one, 2_500, 103);
  ours.p3 = await stripePayment(one, 4_000, 146);
  ours.p4 = await stripePayment(two, 7_000, 228);
  ours.p5 = await stripePayment(one, 1_500, 74);
  ours.p6 = await stripePayment(two, 1_600, 76);
  ours.p7 = await stripePayment(one, 900, 56);
  ours.p1.refund = await stripeRefundOf(ours.p1, 1_000);

  const c1 = charged(ours.p1, 10_000, 320, '2026-03-09T10:00:00Z');
  const c2 = charged(ours.p2, 2_500, 103, '2026-03-09T12:30:00Z');
  const refund = { ...stripeRefund({ charge: c1.charge, amount: 1_000, at: '2026-03-10T08:00:00Z' }), id: ours.p1.refund.providerRefundId };
  // Paid at Stripe by something other than this platform: listed, named by no payment of ours.
  const foreign = stripeCharge({ amount: 3_000, currency: 'eur', paymentIntent: stripeId('pi'), at: '2026-03-10T09:00:00Z' });
  const dispute = stripeDispute({ charge: c2.charge, amount: 2_500, at: '2026-03-10T15:00:00Z' });
  payouts.a1 = pay(
    payoutOf({
      currency: 'eur',
      arrival: `${RUN_DAY}T00:00:00Z`,
      transactions: [
        c1.transaction,
        c2.transaction,
        balanceTransaction({ type: 'refund', amount: -1_000, currency: 'eur', at: '2026-03-10T08:00:00Z', source: refund }),
        balanceTransaction({ type: 'charge', amount: 3_000, fee: 117, currency: 'eur', at: '2026-03-10T09:00:00Z', source: foreign }),
        balanceTransaction({ type: 'adjustment', amount: -2_500, fee: 1_500, currency: 'eur', at: '2026-03-10T15:00:00Z', source: dispute, reportingCategory: 'dispute' }),
        balanceTransaction({ type: 'stripe_fee', amount: -250, currency: 'eur', at: '2026-03-10T23:00:00Z', source: null, reportingCategory: 'fee' }),
      ],
    }),
  );
  // A second payout the same day, in the same currency, to the same legal entity (an instant payout, say).
  payouts.a2 = pay(payoutOf({ currency: 'eur', arrival: `${RUN_DAY}T00:00:00Z`, transactions: [charged(ours.p3, 4_000, 146, '2026-03-11T10:00:00Z').transaction] }));
  // Arrived two days before the run's day: still in its window.
  payouts.b = pay(payoutOf({ currency: 'eur', arrival: '2026-03-10T00:00:00Z', transactions: [charged(ours.p4, 7_000, 228, '2026-03-07T10:00:00Z').transaction] }));
  // Payments of two legal entities in one payout: no one company receives it.
  payouts.mixed = pay(
    payoutOf({
      currency: 'eur',
      arrival: `${RUN_DAY}T00:00:00Z`,
      transactions: [charged(ours.p5, 1_500, 74, '2026-03-10T10:00:00Z').transaction, charged(ours.p6, 1_600, 76, '2026-03-10T11:00:00Z').transaction],
    }),
  );
  payouts.transit = pay(
    payoutOf({ currency: 'eur', arrival: '2026-03-11T00:00:00Z', status: 'in_transit', reconciliationStatus: 'in_progress', transactions: [charged(ours.p7, 900, 56, '2026-03-09T16:00:00Z').transaction] }),
  );
  const manual = payoutOf({ currency: 'eur', arrival: `${RUN_DAY}T00:00:00Z`, automatic: false, reconciliationStatus: 'not_applicable', transactions: [] });
  books.payouts.push({ ...manual.payout, amount: 5_000 });
  payouts.old = pay(payoutOf({ currency: 'eur', arrival: '2026-03-01T00:00:00Z', transactions: [charged(ours.p1, 10_000, 320, '2026-02-27T10:00:00Z').transaction] }));
});

afterAll(async () => {
  await books?.stop();
  await mock?.stop();
});

const get = (id: string) => platform.call('/v2/settlements/get', { id });

const listed = (paid: PaidOut) => paid.transactions.filter((t) => t.type !== 'payout');
const sum = (transactions: StripeObject[], pick: (t: StripeObject) => number) => transactions.reduce((total, t) => total + pick(t), 0);
const ofType = (types: string[]) => (t: StripeObject) => types.includes(t.type as string);

/** The settlement a payout should make, from Stripe's objects alone. */
function expectedOf(paid: PaidOut, legalEntityId: string) {
  const t = listed(paid);
  const days = t.map((x) => new Date((x.created as number) * 1000).toISOString().slice(0, 10)).sort();
  return {
    provider: 'stripe',
    providerSettlementId: paid.payout.id,
    legalEntityId,
    currency: 'EUR',
    amount: paid.payout.amount,
    grossAmount: sum(t.filter(ofType(['charge'])), (x) => x.amount as number),
    refundedAmount: sum(t.filter(ofType(['refund'])), (x) => -(x.amount as number)),
    feeAmount: sum(t, (x) => x.fee as number) - sum(t.filter(ofType(['stripe_fee'])), (x) => x.amount as number),
    adjustmentAmount: sum(t.filter(ofType(['adjustment'])), (x) => x.amount as number),
    settlementDate: new Date(paid.payout.arrival_date * 1000).toISOString().slice(0, 10),
    periodFrom: days[0],
    periodTo: days[days.length - 1],
  };
}

async function stripeSettlements() {
  const rows = await platform.db.settlement.findMany({ where: { provider: 'stripe' }, include: { files: true }, orderBy: { id: 'asc' } });
  return rows.map((row) => ({
    id: row.id,
    provider: row.provider,
    providerSettlementId: row.providerSettlementId,
    legalEntityId: row.legalEntityId,
    currency: row.currency,
    amount: Number(row.amount),
    grossAmount: Number(row.grossAmount),
    refundedAmount: Number(row.refundedAmount),
    feeAmount: Number(row.feeAmount),
    adjustmentAmount: Number(row.adjustmentAmount),
    settlementDate: row.settlementDate.toISOString().slice(0, 10),
    periodFrom: row.periodFrom?.toISOString().slice(0, 10),
    periodTo: row.periodTo?.toISOString().slice(0, 10),
    files: row.files.map((file) => file.status).sort(),
  }));
}

const transactionRequests = () => books.requests.filter((r) => r.path === '/v1/balance_transactions').map((r) => r.query.get('payout'));

describe('settling Stripe payouts', () => {
  it('makes one settlement per paid, reconciled payout of the window, to the minor unit, and leaves the others', async () => {
    const result = await settle(platform, RUN_DAY);
    const unassigned = listed(payouts.mixed!).length;
    expect(result).toEqual({ day: RUN_DAY, settlements: settledFirst.length, filesSucceeded: 2 * settledFirst.length, filesFailed: 0, unassignedLines: unassigned });

    const rows = await stripeSettlements();
    const byPayout = new Map(rows.map(({ id, files, ...row }) => [row.providerSettlementId, { ...row, files }]));
    expect([...byPayout.keys()].sort()).toEqual(settledFirst.map((name) => payouts[name]!.payout.id).sort());
    expect(byPayout.get(payouts.a1!.payout.id)).toEqual({ ...expectedOf(payouts.a1!, leA), files: ['SUCCEEDED', 'SUCCEEDED'] });
    expect(byPayout.get(payouts.a2!.payout.id)).toEqual({ ...expectedOf(payouts.a2!, leA), files: ['SUCCEEDED', 'SUCCEEDED'] });
    expect(byPayout.get(payouts.b!.payout.id)).toEqual({ ...expectedOf(payouts.b!, leB), files: ['SUCCEEDED', 'SUCCEEDED'] });
    // Two payouts of one legal entity, currency and date: two settlements.
    expect(rows.filter((row) => row.legalEntityId === leA && row.settlementDate === RUN_DAY)).toHaveLength(2);
  });

  it('sends Stripe only requests its API accepts: the window of arrival dates, then each ready payout’s transactions with their sources', () => {
    expect(books.rejected).toEqual([]);
    const listings = books.requests.filter((r) => r.path === '/v1/payouts' && !r.query.has('starting_after'));
    expect(listings.map((r) => [r.query.get('arrival_date[gte]'), r.query.get('arrival_date[lt]')])).toEqual([
      [String(seconds('2026-03-06T00:00:00Z')), String(seconds('2026-03-13T00:00:00Z'))],
    ]);
    const ready = [...settledFirst, 'mixed'].map((name) => payouts[name]!.payout.id);
    expect([...new Set(transactionRequests())].sort()).toEqual(ready.sort());
    const expands = books.requests.filter((r) => r.path === '/v1/balance_transactions').map((r) => [...r.query.entries()].filter(([k]) => k.startsWith('expand')).map(([, v]) => v));
    expect(new Set(expands.flat())).toEqual(new Set(['data.source']));
    // Pages were followed (the books answer 2 at a time).
    expect(books.requests.some((r) => r.path === '/v1/balance_transactions' && r.query.has('starting_after'))).toBe(true);
  });

  it('serves a payout’s settlement with files listing our payments, refunds and invoices beside Stripe’s ids', async () => {
    const paid = payouts.a1!;
    const [row] = (await stripeSettlements()).filter((r) => r.providerSettlementId === paid.payout.id);
    const res = await get(row!.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: row!.id,
      provider: 'stripe',
      provider_settlement_id: paid.payout.id,
      legal_entity_id: leA,
      amount: paid.payout.amount,
      currency: 'EUR',
      settlement_date: RUN_DAY,
      period_from: '2026-03-09',
      period_to: '2026-03-10',
    });

    const settlementCsv = await download(res.body.files[0].download_url);
    const t = listed(paid);
    const source = (x: StripeObject) => x.source as StripeObject | null;
    const [p1, p2] = [ours.p1!, ours.p2!];
    expect(
      settlementCsv.rows.map((r) => [r.record_type, r.provider_reference, r.provider_charge_id, r.payment_id, r.refund_id, r.invoice_id, r.net_amount, r.reconciliation]),
    ).toEqual([
      ['CHARGE', source(t[0]!)!.id, p1.intent, p1.paymentId, '', p1.invoiceId, String(t[0]!.net), 'MATCHED'],
      ['CHARGE', source(t[1]!)!.id, p2.intent, p2.paymentId, '', p2.invoiceId, String(t[1]!.net), 'MATCHED'],
      ['REFUND', p1.refund!.providerRefundId, p1.intent, p1.paymentId, p1.refund!.id, p1.invoiceId, String(t[2]!.net), 'MATCHED'],
      ['CHARGE', source(t[3]!)!.id, source(t[3]!)!.payment_intent, '', '', '', String(t[3]!.net), 'UNKNOWN_PAYMENT'],
      ['ADJUSTMENT', source(t[4]!)!.id, p2.intent, p2.paymentId, '', p2.invoiceId, String(t[4]!.net), 'PROVIDER_ONLY'],
      ['FEE', t[5]!.id, '', '', '', '', String(t[5]!.net), 'PROVIDER_ONLY'],
      ['TOTAL', '', '', '', '', '', String(paid.payout.amount), ''],
    ]);
    const total = settlementCsv.rows.at(-1)!;
    expect(Number(total.gross_amount) - Number(total.refunded_amount) - Number(total.fee_amount) + Number(total.adjustment_amount)).toBe(paid.payout.amount);

    const entries = await download(res.body.files[1].download_url);
    expect(entries.rows.reduce((total, r) => total + Number(r.amount), 0)).toBe(paid.payout.amount);
    expect(new Set(entries.rows.map((r) => r.entry_type))).toEqual(new Set(['CHARGE', 'FEE', 'REFUND', 'ADJUSTMENT']));
    expect(entries.rows.filter((r) => r.entry_type === 'ADJUSTMENT').map((r) => [r.provider_reference, r.payment_id, r.amount])).toEqual([
      [source(t[4]!)!.id, p2.paymentId, String(t[4]!.amount)],
    ]);
  });

  it('settles nothing twice: running the day again reads only what is still unsettled', async () => {
    const before = await stripeSettlements();
    const asked = transactionRequests().length;
    const again = await settle(platform, RUN_DAY);
    expect(again).toEqual({ day: RUN_DAY, settlements: 0, filesSucceeded: 0, filesFailed: 0, unassignedLines: listed(payouts.mixed!).length });
    expect(await stripeSettlements()).toEqual(before);
    expect(new Set(transactionRequests().slice(asked))).toEqual(new Set([payouts.mixed!.payout.id]));
    expect(books.rejected).toEqual([]);
  });

  it('settles a payout paid after its arrival day in a later run of its window, dated by its arrival', async () => {
    payouts.transit!.payout.status = 'paid';
    payouts.transit!.payout.reconciliation_status = 'completed';
    const result = await settle(platform, NEXT_DAY);
    expect(result).toMatchObject({ settlements: 1, filesSucceeded: 2, filesFailed: 0 });
    const [row] = (await stripeSettlements()).filter((r) => r.providerSettlementId === payouts.transit!.payout.id);
    const { id, files, ...settled } = row!;
    expect(settled).toEqual(expectedOf(payouts.transit!, leA));
    expect(files).toEqual(['SUCCEEDED', 'SUCCEEDED']);
  });

  it('leaves an account whose key Stripe refuses to a later run, without failing the run', async () => {
    const late = pay(payoutOf({ currency: 'eur', arrival: `${NEXT_DAY}T00:00:00Z`, transactions: [charged(ours.p5!, 1_500, 74, '2026-03-12T10:00:00Z').transaction] }));
    books.revokedKeys.add(SECRET_KEY);
    const refused = await settle(platform, NEXT_DAY);
    expect(refused).toEqual({ day: NEXT_DAY, settlements: 0, filesSucceeded: 0, filesFailed: 0, unassignedLines: 0 });
    expect((await stripeSettlements()).map((row) => row.providerSettlementId)).not.toContain(late.payout.id);

    books.revokedKeys.delete(SECRET_KEY);
    expect(await settle(platform, NEXT_DAY)).toMatchObject({ settlements: 1, filesSucceeded: 2 });
    const [row] = (await stripeSettlements()).filter((r) => r.providerSettlementId === late.payout.id);
    expect(row).toMatchObject({ legalEntityId: leA, amount: late.payout.amount, settlementDate: NEXT_DAY });
  });
});
