import { permissionsOfRole } from '../../domain/dashboard-roles';
import { DAY, GOOD, HARD, MINUTE, SOFT, useSubscriptionPlatform, type SubscriptionSteps } from '../subscriptions/fixtures';
import type { Platform } from '../support/platform';

/**
 * The overview's figures (docs/metrics.md) equal what the list operations add up to: a month of
 * invoices, payments (declines among them), refunds, credit notes and subscription changes made
 * through the API, then every figure checked against an independent sum over the lists.
 */
let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

const UNAVAILABLE = '4000000000000119';
const iso = (at: number) => new Date(at).toISOString().replace('Z', '000Z');

async function everyPage(path: string, body: object = {}): Promise<any[]> {
  const items = [];
  let token: string | undefined;
  do {
    const page = await s.ok(path, { ...body, pagination: { page_size: 100, ...(token ? { next_page_token: token } : {}) } });
    items.push(...page.items);
    token = page.pagination.next_page_token || undefined;
  } while (token);
  return items;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('metrics figures equal the lists', () => {
  let period: { from: string; to: string };
  let started: number;

  beforeAll(async () => {
    started = Date.now() - DAY;
    period = { from: iso(started), to: iso(started + 200 * DAY) };

    // Invoices paid, declined and failed by hand.
    const paid = [];
    for (const amount of [10_000, 2_500, 7_000]) {
      const customerId = await s.customer();
      const invoice = await s.openInvoice(customerId, { amount });
      paid.push((await s.ok('invoices/pay', { id: invoice.id, payment_instrument_id: await s.card(customerId, GOOD) })).invoice);
    }
    for (const number of [SOFT, HARD, UNAVAILABLE, SOFT]) {
      const customerId = await s.customer();
      const invoice = await s.openInvoice(customerId, { amount: 4_000 });
      await platform.call('/v2/invoices/pay', { id: invoice.id, payment_instrument_id: await s.card(customerId, number) });
    }
    // Given back: a refund, a credit note split over refund, balance and out of band, one on an
    // open invoice (before payment), one voided.
    await s.ok('invoices/refund', { id: paid[0].id, amount: 3_000, reason: 'Damaged' });
    await s.ok('credit-notes/create', { invoice_id: paid[1].id, amount: 1_500, reason: 'OTHER', refund_amount: 500, balance_credit_amount: 700, out_of_band_amount: 300 });
    const openCustomer = await s.customer();
    await s.ok('credit-notes/create', { invoice_id: (await s.openInvoice(openCustomer, { amount: 5_000 })).id, amount: 1_200, reason: 'ORDER_CHANGE' });
    const voided = await s.ok('credit-notes/create', { invoice_id: paid[2].id, amount: 800, reason: 'DUPLICATE', balance_credit_amount: 800 });
    await s.ok('credit-notes/void', { id: voided.id });

    // Subscriptions: monthly with a coupon, yearly, weekly cancelled, a first payment declined for
    // good, a trial, one to fall UNPAID and be reactivated, one to fall into dunning.
    await s.ok('coupons/create', { code: 'FIFTEEN', calculation_type: 'PERCENTAGE', calculation_value: 15 });
    const subscribe = async (payer: { customerId: string }, priceId: string, quantity: number, extra: object = {}) =>
      (await s.ok('subscriptions/create', { customer_id: payer.customerId, line_items: [{ product_price_id: priceId, quantity }], ...extra })).id as string;
    const monthly = await subscribe(await s.payer(), await s.price(1_000), 3, { discounts: [{ coupon_code: 'FIFTEEN' }] });
    const yearly = await subscribe(await s.payer(), await s.price(9_999, { value: 1, unit: 'YEAR' }), 1);
    const cancelled = await subscribe(await s.payer(), await s.price(700, { value: 1, unit: 'WEEK' }), 1);
    const neverPaid = await subscribe(await s.payer(HARD), await s.price(1_000), 1);
    await subscribe(await s.payer(), await s.price(2_000), 1, { trial: { type: 'FREE', end_at: new Date((await s.now()) + 60 * DAY).toISOString() } });
    const lapsing = await s.payer();
    const reactivated = await subscribe(lapsing, await s.price(500, { value: 1, unit: 'WEEK' }), 1, { settings: { on_dunning_exhausted: 'REMAIN_UNPAID' } });
    const dunning = await s.payer();
    const redemption = await subscribe(dunning, await s.price(7_000, { value: 1, unit: 'WEEK' }), 1);
    for (const id of [monthly, yearly, cancelled, reactivated, redemption]) await s.statusBecomes(id, 'ACTIVE');
    await s.statusBecomes(neverPaid, 'CANCELLED');
    await s.ok('subscriptions/cancel', { id: cancelled, mode: 'IMMEDIATELY' });
    await s.ok('subscriptions/update', { id: reactivated, payment_instrument_id: await s.card(lapsing.customerId, HARD) });
    await s.ok('subscriptions/update', { id: redemption, payment_instrument_id: await s.card(dunning.customerId, SOFT) });
    await s.sleep(7 * DAY + MINUTE);
    await s.statusBecomes(reactivated, 'UNPAID');
    await s.statusBecomes(redemption, 'REDEMPTION');
    const owed = (await s.invoices(reactivated)).find((invoice) => invoice.status !== 'PAID')!;
    await s.ok('invoices/pay', { id: owed.id, payment_instrument_id: await s.card(lapsing.customerId, GOOD) });
    await s.statusBecomes(reactivated, 'ACTIVE');
  }, 180_000);

  it('answers every overview figure as the lists add it up', async () => {
    const overview = await s.ok('metrics/get-overview', { period, currency: 'EUR' });

    const invoices = await everyPage('invoices/list');
    const payments = (await Promise.all(invoices.map((invoice) => everyPage('invoices/list-payments', { id: invoice.id })))).flat();
    const refunds = (await Promise.all(invoices.map((invoice) => everyPage('invoices/list-refunds', { id: invoice.id })))).flat();
    const notes = (await everyPage('credit-notes/list')).filter((note) => note.status === 'ISSUED');
    const succeeded = payments.filter((p) => p.status === 'SUCCEEDED');
    const failed = payments.filter((p) => p.status === 'DECLINED' || p.status === 'FAILED');
    const refunded = sum(refunds.filter((r) => r.status === 'SUCCEEDED').map((r) => r.amount));
    const noteSum = (field: string) => sum(notes.map((note) => note[field]));

    expect(overview).toMatchObject({ currency: 'EUR', currency_source: 'REQUEST', period });
    expect(overview.gross_volume).toEqual({ current: sum(succeeded.map((p) => p.amount)), previous: 0 });
    expect(overview.refunds).toEqual({ current: refunded, previous: 0 });
    // 3,000 by invoices/refund, 500 by the credit note: each counted once.
    expect(refunded).toBe(3_500);
    expect(overview.credit_notes.current).toEqual({
      total: noteSum('total_amount'),
      pre_payment: noteSum('pre_payment_amount'),
      refund: noteSum('refund_amount'),
      balance_credit: noteSum('balance_credit_amount'),
      out_of_band: noteSum('out_of_band_amount'),
    });
    expect(overview.credit_notes.current).toEqual({ total: 2_700, pre_payment: 1_200, refund: 500, balance_credit: 700, out_of_band: 300 });
    // The balance credit (700) is no money given back: only the refunds and the 300 given back outside count.
    expect(overview.net_revenue.current).toBe(overview.gross_volume.current - refunded - 300);

    const rate = failed.length / (failed.length + succeeded.length);
    expect(overview.failed_payments.current).toEqual({ failed: failed.length, succeeded: succeeded.length, rate: rate.toFixed(4) });
    const codes = new Map<string, number>();
    for (const payment of failed) if (payment.decline_code) codes.set(payment.decline_code, (codes.get(payment.decline_code) ?? 0) + 1);
    const top = [...codes].map(([decline_code, count]) => ({ decline_code, count })).sort((a, b) => b.count - a.count || a.decline_code.localeCompare(b.decline_code)).slice(0, 5);
    expect(overview.top_decline_codes).toEqual(top);
    expect(top.map((code) => code.decline_code)).toEqual(expect.arrayContaining(['do_not_honor', 'insufficient_funds', 'providers_unavailable']));

    const inDunning = invoices.filter((invoice) => invoice.status === 'DUNNING');
    expect(overview.dunning).toEqual({ invoice_count: inDunning.length, amount_due: sum(inDunning.map((invoice) => invoice.amount_due)) });
    expect(inDunning).toHaveLength(1);

    // MRR by hand: 3 × 1,000 − 15 % = 2,550; 9,999 / 12 = 833.25 → 833; weekly 500 × 487/112 =
    // 2,174.1 → 2,174 (reactivated); weekly 7,000 → 30,437.5 → 30,438 (REDEMPTION counts). The
    // cancelled, never-paid and trialing ones add nothing.
    expect(overview.mrr).toEqual({ current: 2_550 + 833 + 2_174 + 30_438, previous: 0 });
    expect(overview.arr).toEqual({ current: 12 * overview.mrr.current, previous: 0 });

    const subscriptions = await everyPage('subscriptions/list');
    const histories = await Promise.all(subscriptions.map(async (sub) => (await everyPage('subscriptions/list-status-history', { id: sub.id })).reverse()));
    const counted = (rule: (change: any, before: any[]) => boolean) =>
      histories.filter((history) => history.some((change, index) => rule(change, history.slice(0, index)))).length;
    const wasActive = (before: any[]) => before.some((change) => change.to_status === 'ACTIVE');
    const expected = {
      new: counted((change, before) => change.to_status === 'ACTIVE' && !wasActive(before)),
      churned: counted((change, before) => ['CANCELLED', 'EXPIRED'].includes(change.to_status) && wasActive(before)),
      reactivated: counted((change, before) => change.to_status === 'ACTIVE' && ['UNPAID', 'CANCELLED'].includes(change.from_status) && wasActive(before)),
    };
    expect(expected).toEqual({ new: 5, churned: 1, reactivated: 1 });
    expect(overview.subscriptions).toEqual({
      new: { current: expected.new, previous: 0 },
      churned: { current: expected.churned, previous: 0 },
      reactivated: { current: expected.reactivated, previous: 0 },
    });

    const counts = await s.ok('metrics/get-subscription-counts', { currency: 'EUR' });
    const byStatus: Record<string, number> = { CREATED: 0, PENDING: 0, TRIALING: 0, ACTIVE: 0, REDEMPTION: 0, UNPAID: 0, CANCELLED: 0, EXPIRED: 0 };
    for (const sub of subscriptions) byStatus[sub.status]! += 1;
    expect(counts.counts).toEqual(byStatus);
    expect(byStatus).toMatchObject({ ACTIVE: 3, REDEMPTION: 1, TRIALING: 1, CANCELLED: 2 });

    const daily = await s.ok('metrics/get-daily-revenue', { period, currency: 'EUR' });
    // 200 days from mid-day touch 201 calendar days.
    expect(daily.days).toHaveLength(201);
    const perDay = (rows: any[], day: string) => sum(rows.filter((row) => row.created_at.slice(0, 10) === day).map((row) => row.amount));
    for (const day of daily.days) {
      expect(day).toEqual({ date: day.date, collected: perDay(succeeded, day.date), refunded: perDay(refunds.filter((r) => r.status === 'SUCCEEDED'), day.date) });
    }
    expect(sum(daily.days.map((day: any) => day.collected))).toBe(overview.gross_volume.current);

    const history = await s.ok('metrics/get-mrr-history', { currency: 'EUR' });
    expect(history.points).toHaveLength(12);
    expect(history.points.at(-1)).toMatchObject({ mrr: overview.mrr.current, arr: overview.arr.current });
    expect(history.points.slice(0, 11).map((point: any) => point.mrr)).toEqual(new Array(11).fill(0));
  });

  it('fills the monthly amount of rows written before it was kept, by the same rule', async () => {
    const before = await s.ok('metrics/get-mrr-history', { currency: 'EUR' });
    await platform.db.subscription.updateMany({ data: { monthlyAmount: null } });
    const overview = await s.ok('metrics/get-overview', { period, currency: 'EUR' });
    expect(overview.mrr.current).toBe(before.points.at(-1).mrr);
    expect(await platform.db.subscription.count({ where: { monthlyAmount: null } })).toBe(0);
  });

  it('reads the main currency when none is asked for, and a period without activity as zero', async () => {
    const defaulted = await s.ok('metrics/get-overview', { period: { from: iso(started - 30 * DAY), to: iso(started) } });
    expect(defaulted).toMatchObject({
      currency: 'EUR',
      currency_source: 'MAIN_CURRENCY',
      gross_volume: { current: 0, previous: 0 },
      mrr: { current: 0, previous: 0 },
      failed_payments: { current: { failed: 0, succeeded: 0, rate: null } },
      top_decline_codes: [],
    });
    const usd = await s.ok('metrics/get-overview', { period, currency: 'USD' });
    expect(usd).toMatchObject({ currency: 'USD', gross_volume: { current: 0 }, mrr: { current: 0 }, dunning: { invoice_count: 0, amount_due: 0 } });
  });

  it('refuses a bad period or currency with the field named', async () => {
    const refused = (body: object) => s.refused('metrics/get-overview', body);
    const at = '2026-11-01T00:00:00.000000Z';
    expect(await refused({ period: { from: at, to: at } })).toMatchObject({ status: 400, code: 'VALIDATION', context: { constraints: { 'period.to': { type: 'INVALID' } } } });
    expect(await refused({ period: { from: at, to: '2026-10-01T00:00:00.000000Z' } })).toMatchObject({ status: 400, context: { constraints: { 'period.to': { type: 'INVALID' } } } });
    expect(await refused({ period: { from: at, to: '2027-11-03T00:00:00.000000Z' } })).toMatchObject({ status: 400, context: { constraints: { 'period.to': { type: 'MAX' } } } });
    expect(await refused({ period: { from: 'yesterday', to: at } })).toMatchObject({ status: 400, context: { constraints: { 'period.from': { type: 'FORMAT' } } } });
    expect(await refused({ period: { from: at } })).toMatchObject({ status: 400, context: { constraints: { 'period.to': { type: 'REQUIRED' } } } });
    expect(await refused({ currency: 'XXX' })).toMatchObject({ status: 400, context: { constraints: { currency: { type: 'ENUM' } } } });
    expect(await s.refused('metrics/get-mrr-history', { currency: 'eur' })).toMatchObject({ status: 400, context: { constraints: { currency: { type: 'ENUM' } } } });
  });

  it('needs an account-level key, and a read permission every dashboard role holds', async () => {
    const key = await s.ok('api-keys/create', { name: 'one channel', permissions: ['metrics:get-overview'], channel_ids: [platform.channelIds[0]] });
    const res = await platform.call('/v2/metrics/get-overview', {}, { secret: key.secret });
    expect(res.status).toBe(403);
    expect(permissionsOfRole('SUPPORT')).toEqual(expect.arrayContaining(['metrics:get-overview', 'metrics:get-daily-revenue', 'metrics:get-mrr-history', 'metrics:get-subscription-counts']));
  });
});
