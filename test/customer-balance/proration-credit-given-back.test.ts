import type { Platform } from '../support/platform';
import { DAY, MINUTE, waitFor, useSubscriptionPlatform, type SubscriptionSteps } from '../subscriptions/fixtures';

/**
 * A proration credit given to the customer balance is money given back by the subscription's paid
 * invoices (issue 40, item 1; docs/customer-balance.md, "Proration credits"): it never exceeds what
 * they have left to give back, and it counts against what invoices/refund may still give.
 */
let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

/** An ACTIVE weekly subscription of two seats at 700 (its first invoice paid 1,400), the clock one minute past its start. */
async function activeTwoSeats() {
  const { customerId } = await s.payer();
  const priceId = await s.price(700, { value: 1, unit: 'WEEK' }, 'Seat');
  const startsAt = await s.soon();
  const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 2 }], starts_at: startsAt });
  await s.sleep(2 * MINUTE);
  await s.statusBecomes(created.id, 'ACTIVE');
  const [first] = await s.invoices(created.id);
  expect(first).toMatchObject({ status: 'PAID', amountPaid: 1_400 });
  return { id: created.id as string, customerId, lineId: created.line_items[0].id as string, start: Date.parse(startsAt), first: first! };
}

/** Two seats to one with three days of seven left: 700 × 3/7 = 300 to the balance, were nothing given back yet. */
async function downgrade(subscription: { id: string; lineId: string; start: number }) {
  await s.sleep(subscription.start + 4 * DAY - (await s.now()));
  await s.ok('subscriptions/update', { id: subscription.id, line_items: { update: [{ id: subscription.lineId, quantity: 1 }] }, proration_credit: 'CUSTOMER_BALANCE' });
}

const creditInvoiceOf = (id: string) => waitFor(`the credit invoice of ${id}`, async () => (await s.invoices(id)).find((invoice) => invoice.totalAmount < 0));
const refund = (body: Record<string, unknown>) => platform.call('/v2/invoices/refund', body);

it('credits nothing to the balance for a period whose payment was refunded in full', async () => {
  const subscription = await activeTwoSeats();
  expect((await refund({ id: subscription.first.id })).body.refund).toMatchObject({ amount: 1_400, status: 'SUCCEEDED' });
  // The preview of the change knows it too: the next cycle draws on no credit.
  await s.sleep(subscription.start + 4 * DAY - (await s.now()));
  const change = { line_items: { update: [{ id: subscription.lineId, quantity: 1 }] }, proration_credit: 'CUSTOMER_BALANCE' };
  const previewed = await s.ok('invoices/preview', { subscription_id: subscription.id, subscription_update: change, proration_date: new Date(await s.now()).toISOString() });
  expect(previewed.next_invoice).toMatchObject({ total_amount: 700, amount_due: 700, amount_details: expect.objectContaining({ balance_applied: 0 }) });
  await downgrade(subscription);

  // The renewal comes after the credit was handled (the workflow gives credits back first): it draws on no balance.
  await s.sleep(3 * DAY);
  const renewal = await waitFor('the renewal', async () => (await s.invoices(subscription.id)).find((invoice) => invoice.id > subscription.first.id && invoice.totalAmount > 0 && invoice.status === 'PAID'));
  expect(renewal).toMatchObject({ totalAmount: 700, amountPaid: 700 });
  expect((await s.invoices(subscription.id)).filter((invoice) => invoice.totalAmount < 0)).toEqual([]);
  expect(await platform.db.customerBalanceTransaction.count({ where: { customerId: subscription.customerId } })).toBe(0);
});

it('refunds only what the balance credit left of the payment: 1,400 − 300', async () => {
  const subscription = await activeTwoSeats();
  await downgrade(subscription);
  expect(await creditInvoiceOf(subscription.id)).toMatchObject({ totalAmount: -300, status: 'PAID' });

  const whole = await refund({ id: subscription.first.id, amount: 1_400 });
  expect({ status: whole.status, code: whole.body.code, context: whole.body.context }).toMatchObject({
    status: 422,
    code: 'REFUND_EXCEEDS_PAYMENT',
    context: { amount: 1_400, refundable: 1_100, amount_paid: 1_400, given_back: 300 },
  });
  const rest = await refund({ id: subscription.first.id });
  expect({ status: rest.status, amount: rest.body.refund?.amount }).toEqual({ status: 200, amount: 1_100 });
});

it('caps the balance credit at what a partial refund left: 200 of 300', async () => {
  const subscription = await activeTwoSeats();
  expect((await refund({ id: subscription.first.id, amount: 1_200 })).status).toBe(200);
  await downgrade(subscription);

  const credit = await creditInvoiceOf(subscription.id);
  expect(credit).toMatchObject({ totalAmount: -200, status: 'PAID', amountDue: 0 });
  expect((await s.ok('customers/get', { id: subscription.customerId })).balances).toEqual({ EUR: -200 });
  const left = await refund({ id: subscription.first.id });
  expect({ status: left.status, code: left.body.code, refundable: left.body.context?.refundable }).toEqual({ status: 422, code: 'REFUND_EXCEEDS_PAYMENT', refundable: 0 });
});
