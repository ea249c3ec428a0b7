import type { Platform } from '../support/platform';
import { DAY, MINUTE, waitFor, useSubscriptionPlatform, type SubscriptionSteps } from '../subscriptions/fixtures';

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

it('a downgrade credited to the customer balance gets a credit note against the paid invoice that gives it back, which cannot be voided', async () => {
  // 700 a seat a week; two seats to one with three days of seven left: 300 back to the balance.
  const { customerId } = await s.payer();
  const priceId = await s.price(700, { value: 1, unit: 'WEEK' }, 'Seat');
  const startsAt = await s.soon();
  const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 2 }], starts_at: startsAt });
  await s.sleep(2 * MINUTE);
  await s.statusBecomes(created.id, 'ACTIVE');
  const [paid] = await s.invoices(created.id);
  await s.sleep(Date.parse(startsAt) + 4 * DAY - (await s.now()));
  await s.ok('subscriptions/update', { id: created.id, line_items: { update: [{ id: created.line_items[0].id, quantity: 1 }] } });

  const credit = await waitFor('the credit invoice', async () => (await s.invoices(created.id)).find((invoice) => invoice.totalAmount < 0));
  const transaction = await platform.db.customerBalanceTransaction.findFirstOrThrow({ where: { invoiceId: credit.id, type: 'CREDITED_FROM_INVOICE' } });
  // The credit invoice moved the money; the note says which payment it came out of.
  expect((await s.ok('credit-notes/list', { filters: { invoice_id: { operator: 'EQ', value: credit.id } } })).items).toEqual([]);
  const list = await s.ok('credit-notes/list', { filters: { invoice_id: { operator: 'EQ', value: paid!.id } } });
  expect(list.items).toEqual([
    expect.objectContaining({
      invoice_id: paid!.id,
      customer_id: customerId,
      origin: 'PRORATION',
      reason: 'ORDER_CHANGE',
      status: 'ISSUED',
      total_amount: 300,
      pre_payment_amount: 0,
      balance_credit_amount: 300,
      refund_amount: 0,
      balance_transaction_id: transaction.id,
      memo: expect.stringMatching(/^Proration credit of 1 line item change/),
    }),
  ]);
  // The balance was credited once, by the credit invoice: the note documents it, moving nothing.
  expect(await platform.db.customerBalanceTransaction.count({ where: { customerId } })).toBe(1);
  const refused = await s.ok('credit-notes/void', { id: list.items[0].id }).catch((error: Error) => error.message);
  expect(refused).toMatch(/CREDIT_NOTE_NOT_VOIDABLE.*AUTOMATIC/);
});
