import { createOperatorApiKey } from '../../scripts/operator/accounts';
import { subscriptionWorkflowId } from '../../domain/workflow-ids';
import type { Platform } from '../support/platform';
import { DAY, MINUTE, useSubscriptionPlatform, type SubscriptionSteps } from '../subscriptions/fixtures';

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

/** An ACTIVE weekly subscription of two lines, one minute past its start. */
async function active() {
  const { customerId } = await s.payer();
  const seat = await s.price(700, { value: 1, unit: 'WEEK' }, 'Seat');
  const storage = await s.price(1_400, { value: 1, unit: 'WEEK' }, 'Storage');
  const startsAt = await s.soon();
  const created = await s.ok('subscriptions/create', {
    customer_id: customerId,
    line_items: [
      { product_price_id: seat, quantity: 1 },
      { product_price_id: storage, quantity: 1 },
    ],
    starts_at: startsAt,
  });
  await s.sleep(2 * MINUTE);
  await s.statusBecomes(created.id, 'ACTIVE');
  return { id: created.id as string, customerId, start: Date.parse(startsAt), lines: created.line_items.map((line: { id: string }) => line.id) as string[] };
}

/** Everything a preview must leave alone: rows, events, idempotency records, the workflow's history. */
async function footprint(subscriptionId: string) {
  const history = await s.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId)).fetchHistory();
  const subscription = await platform.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId }, include: { lineItems: true } });
  return {
    invoices: await platform.db.invoice.count(),
    events: await platform.db.outboxEvent.count(),
    idempotency: await platform.db.idempotencyRecord.count(),
    subscription,
    history: history.events?.length,
  };
}

describe('invoices/preview', () => {
  it('writes nothing, records no event and sends the workflow nothing', async () => {
    const { id, start, lines } = await active();
    await s.sleep(start + 3 * DAY - (await s.now()));
    const before = await footprint(id);
    const at = new Date(await s.now()).toISOString();
    const answer = await s.ok('invoices/preview', { subscription_id: id, subscription_update: { line_items: { update: [{ id: lines[0], quantity: 4 }] } }, proration_date: at });
    await s.ok('invoices/preview', { subscription_id: id }, { headers: { 'idempotency-key': 'preview-1' } });
    expect(answer.update_invoice.total_amount).toBeGreaterThan(0);
    expect(answer.next_invoice).toMatchObject({ billing_reason: 'SUBSCRIPTION_CYCLE', total_amount: 4 * 700 + 1_400 });
    expect(await footprint(id)).toEqual(before);
  });

  it('shows no next invoice when a cancellation comes first, and the update’s credit as no invoice', async () => {
    const { id, start, lines } = await active();
    await s.sleep(start + DAY - (await s.now()));
    const at = new Date(await s.now()).toISOString();
    // A net credit (a line removed) issues no invoice: update_invoice is null.
    const credit = await s.ok('invoices/preview', { subscription_id: id, subscription_update: { line_items: { remove: [lines[1]] } }, proration_date: at });
    expect(credit.update_invoice).toBeNull();
    expect(credit.next_invoice.total_amount).toBe(700);
    await s.ok('subscriptions/cancel', { id, mode: 'PERIOD_END' });
    expect(await s.ok('invoices/preview', { subscription_id: id })).toEqual({ subscription_id: id, next_invoice: null });
  });

  it('refuses as subscriptions/update would, and what it cannot see', async () => {
    const { id, start, lines } = await active();
    await s.sleep(start + DAY - (await s.now()));
    const at = new Date(await s.now()).toISOString();
    expect(await s.refused('invoices/preview', { subscription_id: 'subs_01J00000000000000000000000' })).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await s.refused('invoices/preview', { subscription_id: id, subscription_update: { line_items: { remove: ['slit_01J00000000000000000000000'] } }, proration_date: at })).toMatchObject({
      status: 422,
      code: 'LINE_ITEM_NOT_FOUND',
      context: { field: 'line_items.remove[0]' },
    });
    expect(await s.refused('invoices/preview', { subscription_id: id, subscription_update: { line_items: { remove: lines } }, proration_date: at })).toMatchObject({
      status: 422,
      code: 'RECURRING_LINE_ITEM_REQUIRED',
    });
    expect(await s.refused('invoices/preview', { subscription_id: id, subscription_update: { discounts: [{ coupon_code: 'NOPE' }] }, proration_date: at })).toMatchObject({
      status: 422,
      code: 'COUPON_NOT_FOUND',
    });
    expect(await s.refused('invoices/preview', { subscription_id: id, proration_date: at })).toMatchObject({ status: 400, context: { constraints: { proration_date: { type: 'INVALID' } } } });
    const late = new Date(start + 8 * DAY).toISOString();
    // Outside the subscription's current period: its state, not the body's form, refuses it.
    expect(await s.refused('invoices/preview', { subscription_id: id, subscription_update: { description: 'x' }, proration_date: late })).toMatchObject({
      status: 422,
      code: 'PRORATION_DATE_OUT_OF_PERIOD',
      context: { field: 'proration_date', period_start_at: expect.any(String), next_billing_at: expect.any(String) },
    });
    const early = new Date(start - DAY).toISOString();
    expect(await s.refused('invoices/preview', { subscription_id: id, subscription_update: { description: 'x' }, proration_date: early })).toMatchObject({
      status: 422,
      code: 'PRORATION_DATE_OUT_OF_PERIOD',
      context: { field: 'proration_date' },
    });
    const key = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'reader', permissions: ['invoices:get', 'subscriptions:get'] });
    expect(await s.refused('invoices/preview', { subscription_id: id }, { secret: key.secret })).toMatchObject({
      status: 403,
      code: 'PERMISSION_DENIED',
      context: { required_permission: 'invoices:preview' },
    });
  });

  it('is in the OpenAPI document with its own permission', async () => {
    const document: any = await (await fetch(`${platform.baseUrl}/openapi.json`)).json();
    const operation = document.paths['/v2/invoices/preview'].post;
    expect(operation.description).toMatch(/Writes nothing/);
    expect(JSON.stringify(operation.requestBody)).toMatch(/subscription_update/);
    expect(JSON.stringify(operation.responses['200'])).toMatch(/next_invoice/);
  });

  it('applies the customer balance as finalization does: a credit down to amount_due 0, the rest to the next invoice; a debit added', async () => {
    const { id, customerId, start, lines } = await active();
    await s.sleep(start + 3 * DAY - (await s.now()));
    const at = await s.now();
    const input = { subscription_id: id, subscription_update: { line_items: { update: [{ id: lines[0]!, quantity: 2 }] } }, proration_date: new Date(at).toISOString() };
    const preview = async () => (await platform.call('/v2/invoices/preview', input)).body;
    const adjust = (amount: number) => s.ok('customer-balance-transactions/create', { customer_id: customerId, currency: 'EUR', amount, description: 'Preview test' });
    const none = await preview();
    const prorated = none.update_invoice.total_amount;
    const nextTotal = none.next_invoice.total_amount;

    await adjust(-(prorated + 150));
    const withCredit = await preview();
    expect(withCredit.update_invoice).toMatchObject({ starting_balance: -(prorated + 150), ending_balance: -150, amount_due: 0, total_amount: prorated });
    expect(withCredit.update_invoice.amount_details).toMatchObject({ balance_applied: prorated, balance_credited: 0 });
    expect(withCredit.next_invoice).toMatchObject({ starting_balance: -150, ending_balance: 0, amount_due: nextTotal - 150 });
    expect(withCredit.next_invoice.amount_details).toMatchObject({ balance_applied: 150 });

    await adjust(prorated + 150 + 90);
    const withDebit = await preview();
    expect(withDebit.update_invoice).toMatchObject({ starting_balance: 90, ending_balance: 0, amount_due: prorated + 90 });
    expect(withDebit.update_invoice.amount_details).toMatchObject({ balance_applied: -90 });
    expect(withDebit.next_invoice).toMatchObject({ starting_balance: 0, amount_due: nextTotal });
  });
});
