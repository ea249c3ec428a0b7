import type { Platform } from '../support/platform';
import { DAY, MINUTE, waitFor, useSubscriptionPlatform, type SubscriptionSteps } from '../subscriptions/fixtures';

/**
 * An invoice paid from the customer balance has given back nothing of what it took (docs/invoice-
 * payments.md, "What is left to give back"): the balance it consumed may go back to the balance,
 * by a proration credit or a credit note, while a refund stays bounded by what the card paid.
 */
let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

/**
 * An ACTIVE weekly subscription of two seats at 700 (its first invoice 1,400) for a customer
 * granted `granted` of balance credit first, the clock one minute past its start.
 */
async function activeTwoSeats(granted: number) {
  const { customerId } = await s.payer();
  await s.ok('customer-balance-transactions/create', { customer_id: customerId, currency: 'EUR', amount: -granted, description: 'Prepaid' });
  const priceId = await s.price(700, { value: 1, unit: 'WEEK' }, 'Seat');
  const startsAt = await s.soon();
  const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 2 }], starts_at: startsAt });
  await s.sleep(2 * MINUTE);
  await s.statusBecomes(created.id, 'ACTIVE');
  const [first] = await s.invoices(created.id);
  expect(first).toMatchObject({ status: 'PAID', amountPaid: Math.max(0, 1_400 - granted) });
  expect(first!.amountDetails).toMatchObject({ balance_applied: Math.min(granted, 1_400) });
  return { id: created.id as string, customerId, lineId: created.line_items[0].id as string, start: Date.parse(startsAt), first: first! };
}

/** Two seats to one with three days of seven left: 700 × 3/7 = 300 to the balance, were nothing given back yet. */
async function downgrade(subscription: { id: string; lineId: string; start: number }) {
  await s.sleep(subscription.start + 4 * DAY - (await s.now()));
  await s.ok('subscriptions/update', { id: subscription.id, line_items: { update: [{ id: subscription.lineId, quantity: 1 }] }, proration_credit: 'CUSTOMER_BALANCE' });
}

const creditInvoiceOf = (id: string) => waitFor(`the credit invoice of ${id}`, async () => (await s.invoices(id)).find((invoice) => invoice.totalAmount < 0));
const balanceOf = async (customerId: string) => (await s.ok('customers/get', { id: customerId })).balances.EUR as number;
const call = (path: string, body: Record<string, unknown>) => platform.call(`/v2/${path}`, body);
const refusal = (res: { status: number; body: { code?: string; context?: Record<string, unknown> } }) => ({ status: res.status, code: res.body.code, context: res.body.context });

it('credits a downgrade to the balance when the period was paid from the balance', async () => {
  const subscription = await activeTwoSeats(1_400);
  expect(await balanceOf(subscription.customerId)).toBe(0);
  await downgrade(subscription);

  expect(await creditInvoiceOf(subscription.id)).toMatchObject({ totalAmount: -300, status: 'PAID' });
  expect(await balanceOf(subscription.customerId)).toBe(-300);
  const notes = await platform.db.creditNote.findMany({ where: { invoiceId: subscription.first.id } });
  expect(notes.map((note) => [note.origin, note.balanceCreditAmount, note.refundAmount])).toEqual([['PRORATION', 300, 0]]);
  // Nothing of it went through a provider: there is nothing to refund.
  expect(refusal(await call('invoices/refund', { id: subscription.first.id })).code).toBe('INCOMPATIBLE_STATUS');
});

it('credits no more than the balance the invoice consumed has left: 200 after a credit note gave 1,200 back', async () => {
  const subscription = await activeTwoSeats(1_400);
  const note = await call('credit-notes/create', { invoice_id: subscription.first.id, amount: 1_200, reason: 'OTHER', balance_credit_amount: 1_200 });
  expect({ status: note.status, post: note.body.post_payment_amount, balance: note.body.balance_credit_amount }).toEqual({ status: 200, post: 1_200, balance: 1_200 });
  expect(await balanceOf(subscription.customerId)).toBe(-1_200);
  await downgrade(subscription);

  expect(await creditInvoiceOf(subscription.id)).toMatchObject({ totalAmount: -200, status: 'PAID' });
  expect(await balanceOf(subscription.customerId)).toBe(-1_400);
  const more = await call('credit-notes/create', { invoice_id: subscription.first.id, amount: 1, reason: 'OTHER', balance_credit_amount: 1 });
  expect(refusal(more)).toMatchObject({ status: 422, code: 'CREDIT_NOTE_EXCEEDS_INVOICE', context: { post_payment_creditable: 0 } });
});

it('paid 1,000 from the balance and 400 by card: the card gets at most 400 back, the balance the rest', async () => {
  const subscription = await activeTwoSeats(1_000);
  const whole = await call('invoices/refund', { id: subscription.first.id, amount: 1_400 });
  expect(refusal(whole)).toMatchObject({ status: 422, code: 'REFUND_EXCEEDS_PAYMENT', context: { refundable: 400, amount_paid: 400 } });
  expect((await call('invoices/refund', { id: subscription.first.id })).body.refund).toMatchObject({ amount: 400, status: 'SUCCEEDED' });

  // The card has had all it paid; the balance the invoice consumed is still there to credit.
  await downgrade(subscription);
  expect(await creditInvoiceOf(subscription.id)).toMatchObject({ totalAmount: -300, status: 'PAID' });
  expect(await balanceOf(subscription.customerId)).toBe(-300);

  // 1,400 − 400 refunded − 300 credited = 700 left, none of it to the card.
  const tooMuch = await call('credit-notes/create', { invoice_id: subscription.first.id, amount: 701, reason: 'OTHER', balance_credit_amount: 701 });
  expect(refusal(tooMuch)).toMatchObject({ status: 422, code: 'CREDIT_NOTE_EXCEEDS_INVOICE', context: { post_payment_creditable: 700 } });
  const toCard = await call('credit-notes/create', { invoice_id: subscription.first.id, amount: 100, reason: 'OTHER', refund_amount: 100 });
  expect(refusal(toCard)).toMatchObject({ status: 422, code: 'REFUND_EXCEEDS_PAYMENT', context: { refundable: 0 } });
  const rest = await call('credit-notes/create', { invoice_id: subscription.first.id, amount: 700, reason: 'OTHER', balance_credit_amount: 700 });
  expect(rest.status).toBe(200);
  expect(await balanceOf(subscription.customerId)).toBe(-1_000);
});
