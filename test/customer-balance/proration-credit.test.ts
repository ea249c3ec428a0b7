import { findLedgerDisagreements } from '../../services/customer-balance/ledger-check';
import type { Platform } from '../support/platform';
import { DAY, MINUTE, waitFor, useSubscriptionPlatform, type SubscriptionSteps } from '../subscriptions/fixtures';

/** docs/customer-balance.md, "Proration credits": a downgrade's credit goes to the customer balance by default. */
let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

/** An ACTIVE weekly subscription of two seats, the clock one minute past its start. */
async function activeTwoSeats(amount: number) {
  const { customerId } = await s.payer();
  const priceId = await s.price(amount, { value: 1, unit: 'WEEK' }, 'Seat');
  const startsAt = await s.soon();
  const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 2 }], starts_at: startsAt });
  await s.sleep(2 * MINUTE);
  await s.statusBecomes(created.id, 'ACTIVE');
  return { id: created.id, customerId, lineId: created.line_items[0].id as string, start: Date.parse(startsAt) };
}

const creditInvoiceOf = (id: string) =>
  waitFor(`the credit invoice of ${id}`, async () => (await s.invoices(id)).find((invoice) => invoice.totalAmount < 0));

describe('proration credits', () => {
  it('credit a downgrade to the customer balance with a PAID credit invoice, and the next cycle draws on it', async () => {
    // 700 a seat a week; two seats to one with three days of seven left: 700 × 3/7 = 300 back.
    const { id, customerId, lineId, start } = await activeTwoSeats(700);
    await s.sleep(start + 4 * DAY - (await s.now()));
    await s.ok('subscriptions/update', { id, line_items: { update: [{ id: lineId, quantity: 1 }] } });

    const credit = await creditInvoiceOf(id);
    expect(credit).toMatchObject({ status: 'PAID', totalAmount: -300, amountDue: 0, amountPaid: 0, billingReason: 'SUBSCRIPTION_CYCLE' });
    expect(credit.amountDetails).toMatchObject({ subtotal: -300, balance_applied: 0, balance_credited: 300 });
    expect(credit.lineItems.map((line) => [line.amount, line.description?.startsWith('Proration credit of 1 line item change')])).toEqual([[-300, true]]);
    expect(await platform.db.refund.count({ where: { invoice: { subscriptionId: id } } })).toBe(0);
    const credited = await s.ok('customer-balance-transactions/list', { customer_id: customerId });
    expect(credited.items).toEqual([expect.objectContaining({ type: 'CREDITED_FROM_INVOICE', amount: -300, invoice_id: credit.id, ending_balance: -300 })]);
    expect((await s.ok('customers/get', { id: customerId })).balances).toEqual({ EUR: -300 });

    // The renewal bills one seat, 700, of which the credit pays 300: 400 is charged.
    await s.sleep(3 * DAY);
    const renewal = await waitFor('the renewal', async () => (await s.invoices(id)).find((invoice) => invoice.id > credit.id && invoice.status === 'PAID'));
    expect(renewal).toMatchObject({ totalAmount: 700, amountPaid: 400, amountDue: 0 });
    expect(renewal.amountDetails).toMatchObject({ balance_applied: 300, balance_credited: 0 });
    expect((await platform.db.payment.findFirstOrThrow({ where: { invoiceId: renewal.id, status: 'SUCCEEDED' } })).amount).toBe(400);
    expect((await s.ok('customers/get', { id: customerId })).balances).toEqual({ EUR: 0 });
    expect(await findLedgerDisagreements(platform.db, { accountId: platform.accountId, customerId })).toEqual([]);
  });

  it('refunds instead when the account is set to REFUND, and a change can still ask for the balance', async () => {
    await platform.db.account.update({ where: { id: platform.accountId }, data: { prorationCredit: 'REFUND' } });
    try {
      const refunded = await activeTwoSeats(700);
      await s.sleep(refunded.start + 4 * DAY - (await s.now()));
      await s.ok('subscriptions/update', { id: refunded.id, line_items: { update: [{ id: refunded.lineId, quantity: 1 }] } });
      const [refund] = await waitFor('the refund', async () => {
        const rows = await platform.db.refund.findMany({ where: { invoice: { subscriptionId: refunded.id } } });
        return rows.length === 1 && rows[0]!.status !== 'PENDING' ? rows : undefined;
      });
      expect(refund).toMatchObject({ amount: 300, status: 'SUCCEEDED' });
      expect((await s.invoices(refunded.id)).every((invoice) => invoice.totalAmount > 0)).toBe(true);

      const asked = await activeTwoSeats(700);
      await s.sleep(asked.start + 4 * DAY - (await s.now()));
      await s.ok('subscriptions/update', { id: asked.id, line_items: { update: [{ id: asked.lineId, quantity: 1 }] }, proration_credit: 'CUSTOMER_BALANCE' });
      expect(await creditInvoiceOf(asked.id)).toMatchObject({ totalAmount: -300, status: 'PAID' });
      expect((await s.ok('customers/get', { id: asked.customerId })).balances).toEqual({ EUR: -300 });
    } finally {
      await platform.db.account.update({ where: { id: platform.accountId }, data: { prorationCredit: 'CUSTOMER_BALANCE' } });
    }
  });
});
