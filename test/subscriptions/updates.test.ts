import { createSubscriptionActivities } from '../../activities/subscription';
import type { Platform } from '../support/platform';
import { DAY, MINUTE, waitFor, useSubscriptionPlatform, type SubscriptionSteps } from './fixtures';

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

/** The refunds of the subscription's invoices, once there are `count` of them. */
function refundsOf(id: string, count: number) {
  return waitFor(`${count} refunds of ${id}`, async () => {
    const refunds = await platform.db.refund.findMany({ where: { invoice: { subscriptionId: id } }, orderBy: { id: 'asc' } });
    return refunds.length === count && refunds.every((r) => r.status !== 'PENDING') ? refunds : undefined;
  });
}

/** An ACTIVE weekly subscription, the clock one minute past its start. */
async function activeWeekly(amount: number) {
  const { customerId } = await s.payer();
  const priceId = await s.price(amount, { value: 1, unit: 'WEEK' }, 'Seat');
  const startsAt = await s.soon();
  const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1 }], starts_at: startsAt });
  await s.sleep(2 * MINUTE);
  await s.statusBecomes(created.id, 'ACTIVE');
  return { id: created.id, customerId, lineId: created.line_items[0].id as string, start: Date.parse(startsAt) };
}

describe('updates', () => {
  it('prorates a mid-cycle line change by the seconds left: an upgrade is invoiced at once, a net credit is refunded', async () => {
    // 700 a week: one second moves a prorated amount by about 0.001, so the seconds the test
    // takes to run cannot change a rounded result.
    const { id, lineId, start } = await activeWeekly(700);
    await s.sleep(start + 4 * DAY - (await s.now()));

    // Three days of seven are left: credit 300 for one seat, charge 600 for two.
    const upgraded = await s.ok('subscriptions/update', { id, line_items: { update: [{ id: lineId, quantity: 2 }] } });
    expect(upgraded).toMatchObject({ status: 'ACTIVE', line_items: [{ id: lineId, quantity: 2 }] });
    const [, proration] = await s.settled(id, 2);
    expect(upgraded.latest_invoice_id).toBe(proration!.id);
    expect(proration).toMatchObject({ billingReason: 'SUBSCRIPTION_CYCLE', totalAmount: 300, status: 'PAID' });
    expect(proration!.lineItems[0]!.description).toMatch(/^Proration of 1 line item change/);

    // A second line for the rest of the period, and a cheaper price for the first: 600 → 300 for
    // the first (credit 300), +429 × 3/7 ≈ 184 for the new one: net −116, refunded, nothing invoiced.
    const cheap = await s.price(350, { value: 1, unit: 'WEEK' }, 'Half seat');
    const extra = await s.price(429, { value: 1, unit: 'WEEK' }, 'Add-on');
    const changed = await s.ok('subscriptions/update', {
      id,
      line_items: { update: [{ id: lineId, product_price_id: cheap }], add: [{ product_price_id: extra, quantity: 1 }] },
      proration_credit: 'REFUND',
    });
    expect(changed.line_items.map((l: { product_price_id: string; quantity: number }) => [l.product_price_id, l.quantity])).toEqual([[cheap, 2], [extra, 1]]);
    expect(changed.line_items[0].product_info.name).toBe('Half seat');
    expect(await s.invoices(id)).toHaveLength(2);
    // Against the newest paid invoice, whose total is its subtotal (no coupon): 116 as it is.
    const [refund] = await refundsOf(id, 1);
    expect(refund).toMatchObject({ invoiceId: proration!.id, amount: 116, status: 'SUCCEEDED' });
    expect(refund!.reason).toMatch(/^Proration credit of 2 line item changes/);
    expect(await platform.db.payment.findFirstOrThrow({ where: { invoiceId: proration!.id, status: 'SUCCEEDED' } })).toMatchObject({ refundedAmount: 116 });
    const refunded = await platform.db.outboxEvent.findMany({ where: { eventType: 'INVOICE_PAYMENT_REFUNDED' } });
    expect(refunded.filter((e) => (e.data as { refund: { id: string } }).refund.id === refund!.id)).toHaveLength(1);

    // The next cycle bills the new lines in full.
    await s.sleep(3 * DAY);
    const [, , renewal] = await s.settled(id, 3);
    expect(renewal).toMatchObject({ billingReason: 'SUBSCRIPTION_CYCLE', totalAmount: 700 + 429 });

    const removed = await s.ok('subscriptions/update', { id, line_items: { remove: [changed.line_items[1].id] } });
    expect(removed.line_items).toHaveLength(1);
    expect(await s.eventTypes(id)).toEqual([
      'SUBSCRIPTION_CREATED',
      'SUBSCRIPTION_ACTIVATED',
      'SUBSCRIPTION_UPDATED',
      'SUBSCRIPTION_UPDATED',
      'SUBSCRIPTION_RENEWED',
      'SUBSCRIPTION_UPDATED',
    ]);
  });

  it('a credit is scaled by what the invoice charged (a 50 % coupon halves it) and refunded once', async () => {
    const coupon = await s.ok('coupons/create', { code: `HALF-${Date.now()}`, calculation_type: 'PERCENTAGE', calculation_value: 50 });
    const { customerId } = await s.payer();
    const priceId = await s.price(1_000, { value: 1, unit: 'WEEK' }, 'Seat');
    const startsAt = await s.soon();
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: priceId, quantity: 3 }],
      starts_at: startsAt,
      discounts: [{ coupon_id: coupon.id }],
    });
    await s.sleep(2 * MINUTE);
    await s.statusBecomes(created.id, 'ACTIVE');
    const [first] = await s.settled(created.id, 1);
    expect(first).toMatchObject({ totalAmount: 1_500, status: 'PAID' });
    await s.sleep(Date.parse(startsAt) + 4 * DAY - (await s.now()));

    // Three seats to one with three days of seven left: 3000 × 3/7 ≈ 1286 back, 1000 × 3/7 ≈ 429
    // on: credit 857 at list price, half of it (428.5, half up) given back.
    await s.ok('subscriptions/update', { id: created.id, line_items: { update: [{ id: created.line_items[0].id, quantity: 1 }] }, proration_credit: 'REFUND' });
    const [refund] = await refundsOf(created.id, 1);
    expect(refund).toMatchObject({ invoiceId: first!.id, amount: 429, status: 'SUCCEEDED' });
    expect(await s.invoices(created.id)).toHaveLength(1);

    // A later change with no credit refunds nothing more.
    await s.ok('subscriptions/update', { id: created.id, description: 'One seat' });
    await s.sleep(MINUTE);
    expect(await platform.db.refund.count({ where: { invoiceId: first!.id } })).toBe(1);

    // The activity run again for the same credit (a retry) finds its refund and makes no other.
    const key = refund!.idempotencyKey.split('/').slice(2, 4).join('/');
    expect(key).toMatch(/^proration\/\d+$/);
    const again = await createSubscriptionActivities({ db: platform.db }).refundProrationCredit({
      subscriptionId: created.id,
      key,
      credit: { amount: 857, description: 'retried' },
    });
    expect(again).toEqual({ refunded: 429, refundIds: [refund!.id] });
    expect(await platform.db.refund.count({ where: { invoiceId: first!.id } })).toBe(1);
  });

  it('refuses changes the subscription cannot take with a 422 from the workflow', async () => {
    const { id, lineId } = await activeWeekly(1_000);
    const yearly = await s.price(10_000, { value: 1, unit: 'YEAR' });
    const update = (body: object) => s.refused('subscriptions/update', { id, ...body });
    expect(await update({ line_items: { remove: [lineId] } })).toMatchObject({ status: 422, code: 'RECURRING_LINE_ITEM_REQUIRED' });
    expect(await update({ line_items: { remove: ['slit_nothere'] } })).toMatchObject({ status: 422, code: 'LINE_ITEM_NOT_FOUND', context: { id: 'slit_nothere' } });
    expect(await update({ line_items: { add: [{ product_price_id: yearly, quantity: 1 }] } })).toMatchObject({ status: 422, code: 'BILLING_PERIOD_MISMATCH' });
    expect(await update({ end_trial: true })).toMatchObject({ status: 422, code: 'TRIAL_NOT_ACTIVE', context: { status: 'ACTIVE' } });
    expect(await update({ discounts: [{ coupon_code: 'NONE' }] })).toMatchObject({ status: 422, code: 'COUPON_NOT_FOUND' });
    expect(await update({ payment_instrument_id: 'pi_nothere' })).toMatchObject({ status: 422, code: 'PAYMENT_INSTRUMENT_NOT_FOUND' });
    expect(await update({ line_items: { update: [{ id: lineId }] } })).toMatchObject({ status: 400, code: 'VALIDATION' });
    expect(await s.eventTypes(id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_ACTIVATED']);
  });

  it('changes description, metadata, discounts and instrument; the same Idempotency-Key applies a change once', async () => {
    const { id, customerId } = await activeWeekly(1_000);
    const coupon = await s.ok('coupons/create', { code: 'TENOFF', calculation_type: 'PERCENTAGE', calculation_value: 10 });
    const card = await s.card(customerId);
    const body = { id, description: 'Team plan', metadata: { team: 'blue' }, discounts: [{ coupon_id: coupon.id }], payment_instrument_id: card };
    const headers = { 'idempotency-key': 'update-once' };
    const first = await s.ok('subscriptions/update', body, { headers });
    const again = await s.ok('subscriptions/update', body, { headers });
    expect(again).toEqual(first);
    expect(first).toMatchObject({ description: 'Team plan', metadata: { team: 'blue' }, payment_instrument_id: card, discounts: [{ coupon_id: coupon.id, coupon_code: 'TENOFF' }] });
    expect((await s.eventTypes(id)).filter((t) => t === 'SUBSCRIPTION_UPDATED')).toHaveLength(1);

    const cleared = await s.ok('subscriptions/update', { id, description: null, metadata: null, discounts: [] });
    expect(cleared.description).toBeUndefined();
    expect(cleared.metadata).toBeUndefined();
    expect(cleared.discounts).toEqual([]);
    // The workflow's state and its read model agree.
    expect((await s.state(id)).version).toBe((await platform.db.subscription.findUniqueOrThrow({ where: { id } })).version);
  });
});
