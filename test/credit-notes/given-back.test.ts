import { refundProrationCredit } from '../../services/subscriptions/proration-refund';
import { usePlatform } from '../support/platform';
import { creditNoteMerchant } from './fixtures';

/**
 * An invoice never gives back more than was paid (issue 40, item 1), whichever paths give it back:
 * invoices/refund with and without an amount, a credit note's refund and balance-credit parts, a
 * proration refund; and a voided note's credit can be given back again.
 */
const platform = usePlatform();
let m: ReturnType<typeof creditNoteMerchant>;

beforeAll(() => {
  m = creditNoteMerchant(platform);
});

const refund = (body: Record<string, unknown>) => platform.call('/v2/invoices/refund', body);
const refusal = (res: { status: number; body: any }) => ({ status: res.status, code: res.body.code, context: res.body.context });

/** Refunds not FAILED plus the balance-credit and out-of-band parts of ISSUED notes, as the database holds them. */
async function givenBack(invoiceId: string): Promise<number> {
  const refunds = await platform.db.refund.findMany({ where: { invoiceId, status: { not: 'FAILED' } } });
  const notes = await platform.db.creditNote.findMany({ where: { invoiceId, status: 'ISSUED' } });
  return refunds.reduce((sum, r) => sum + r.amount, 0) + notes.reduce((sum, n) => sum + n.balanceCreditAmount + n.outOfBandAmount, 0);
}

describe('invoices/refund after credit notes', () => {
  it('refunds by default only what a 500 refund + 500 balance note left of 7,331: 6,331, then nothing', async () => {
    const { invoice, payment } = await m.paidInvoice(7_331);
    await m.ok('credit-notes/create', { invoice_id: invoice.id, amount: 1_000, reason: 'OTHER', refund_amount: 500, balance_credit_amount: 500 });

    const over = await refund({ id: invoice.id, amount: 6_332 });
    expect(refusal(over)).toEqual({
      status: 422,
      code: 'REFUND_EXCEEDS_PAYMENT',
      context: { amount: 6_332, refundable: 6_331, payment_id: payment.id, amount_paid: 7_331, given_back: 1_000 },
    });

    const rest = await refund({ id: invoice.id });
    expect({ status: rest.status, amount: rest.body.refund?.amount, refunded: rest.body.amount_refunded }).toEqual({ status: 200, amount: 6_331, refunded: 6_831 });
    expect(await givenBack(invoice.id)).toBe(7_331);

    expect(refusal(await refund({ id: invoice.id }))).toEqual({
      status: 422,
      code: 'REFUND_EXCEEDS_PAYMENT',
      context: { amount: 0, refundable: 0, payment_id: payment.id, amount_paid: 7_331, given_back: 7_331 },
    });
  });

  it('refuses any refund once the whole payment was credited to the balance, and refunds it all once that note is voided', async () => {
    const { customerId, invoice, payment } = await m.paidInvoice(7_331);
    const note = await m.ok('credit-notes/create', { invoice_id: invoice.id, amount: 7_331, reason: 'OTHER', balance_credit_amount: 7_331 });

    expect(refusal(await refund({ id: invoice.id }))).toEqual({
      status: 422,
      code: 'REFUND_EXCEEDS_PAYMENT',
      context: { amount: 0, refundable: 0, payment_id: payment.id, amount_paid: 7_331, given_back: 7_331 },
    });
    expect(refusal(await refund({ id: invoice.id, amount: 1 }))).toMatchObject({ status: 422, code: 'REFUND_EXCEEDS_PAYMENT', context: { refundable: 0 } });
    expect(await givenBack(invoice.id)).toBe(7_331);

    // Voiding the note takes its credit back from the balance: the payment is the invoice's to give back again.
    await m.ok('credit-notes/void', { id: note.id });
    const all = await refund({ id: invoice.id });
    expect({ status: all.status, amount: all.body.refund?.amount }).toEqual({ status: 200, amount: 7_331 });
    const ledger = await platform.db.customerBalanceTransaction.findMany({ where: { customerId, currency: 'EUR' } });
    expect(ledger.reduce((sum, t) => sum + t.amount, 0)).toBe(0);
    expect(await givenBack(invoice.id)).toBe(7_331);
  });

  it('lets one of a full refund and a full balance credit sent together through, never both', async () => {
    const { invoice } = await m.paidInvoice(7_331);
    const [refunded, credited] = await Promise.all([
      refund({ id: invoice.id }),
      platform.call('/v2/credit-notes/create', { invoice_id: invoice.id, amount: 7_331, reason: 'OTHER', balance_credit_amount: 7_331 }),
    ]);
    expect([refunded.status, credited.status].sort()).toEqual([200, 422]);
    expect(await givenBack(invoice.id)).toBe(7_331);
  });
});

describe('a proration refund after credit notes', () => {
  it('refunds only what a balance-credit note left of the paid invoice', async () => {
    const { invoice } = await m.paidInvoice(1_000);
    await m.ok('credit-notes/create', { invoice_id: invoice.id, amount: 600, reason: 'OTHER', balance_credit_amount: 600 });
    const subscriptionId = 'subs_given_back_proration';
    await platform.db.invoice.update({ where: { id: invoice.id }, data: { subscriptionId } });

    const outcome = await refundProrationCredit(
      { db: platform.db, now: () => new Date() },
      { subscriptionId, key: 'proration/1', credit: { amount: 900, description: 'Proration credit (test)' } },
    );
    expect(outcome.refunded).toBe(400);
    expect(await givenBack(invoice.id)).toBe(1_000);
  });
});
