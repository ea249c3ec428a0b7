import { readChargeableInvoice, readVisibleInvoice } from '../../services/invoices/invoice-read';
import { chargeableInvoiceSelect } from '../../services/payments/settle';
import { findInvoiceCustomer, visibleInvoice } from '../../services/invoices/repository';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

async function ok(path: string, body: unknown) {
  const res = await platform.call(`/v2/${path}`, body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * invoices/get reads an invoice, its lines and a draft's live customer in one hand-written
 * statement (services/invoices/invoice-read.ts): it must give exactly what Prisma's three reads
 * give, down to the Decimal tax rates and the line dates.
 */
describe('the one-statement invoice read', () => {
  // The platform's account exists once beforeAll has run.
  const all = () => ({ accountId: platform.accountId, channels: null, keyChannels: null });

  async function prismaReading(id: string) {
    const row = await visibleInvoice(platform.db, all(), id);
    return { row, customer: row.customerSnapshot === null ? await findInvoiceCustomer(platform.db, row.customerId) : undefined };
  }

  it('equals Prisma’s reading for a taxed, discounted draft with its live customer, and for the same invoice finalized', async () => {
    const customer = await ok('customers/create', { type: 'INDIVIDUAL', email: 'ada@example.com', first_name: 'Ada', address: { country: 'DEU', city: 'Berlin' } });
    const coupon = await ok('coupons/create', { code: 'TEN', calculation_type: 'PERCENTAGE', calculation_value: 10 });
    const invoice = await ok('invoices/create', {
      customer_id: customer.id,
      currency: 'EUR',
      line_items: [
        { amount: 333, description: 'Exclusive', quantity: 3, tax: { mode: 'EXCLUSIVE', rate: 7.5 } },
        { amount: 1190, description: 'Inclusive', quantity: 7, tax: { category_id: 'taxc_red', mode: 'INCLUSIVE', rate: 19 } },
        { amount: 1, description: 'Untaxed', quantity: 1 },
      ],
      discounts: [{ coupon_id: coupon.id }],
      notes: 'Thanks',
      merchant_reference: 'PO-7',
      metadata: { order: '7' },
    });

    const draft = await readVisibleInvoice(platform.db, all(), invoice.id);
    expect(draft).toEqual(await prismaReading(invoice.id));
    expect(await platform.db.$transaction((tx) => readVisibleInvoice(tx, all(), invoice.id))).toEqual(draft);
    expect(draft.customer).toMatchObject({ id: customer.id, firstName: 'Ada' });
    expect(draft.row.lineItems.map((line) => line.taxRate?.toString() ?? null)).toEqual(['7.5', '19', null]);

    await ok('invoices/finalize', { id: invoice.id });
    const finalized = await readVisibleInvoice(platform.db, all(), invoice.id);
    expect(finalized).toEqual(await prismaReading(invoice.id));
    expect(finalized.customer).toBeUndefined();

    // The charge path's reading by id (services/payments/settle.ts, lockInvoice): the same columns plus the attempts settled.
    const chargeable = await platform.db.invoice.findUnique({ where: { id: invoice.id }, select: chargeableInvoiceSelect });
    expect(await readChargeableInvoice(platform.db, invoice.id)).toEqual(chargeable);
    expect(await platform.db.$transaction((tx) => readChargeableInvoice(tx, invoice.id))).toEqual(chargeable);
    expect(await readChargeableInvoice(platform.db, 'inv_01nonexistent000000000000')).toBeNull();
  });

  it('is 404 for a deleted invoice, another account’s, and one outside the caller’s channels', async () => {
    const customer = await ok('customers/create', { type: 'INDIVIDUAL', email: 'bob@example.com' });
    const draft = await ok('invoices/create', { customer_id: customer.id, currency: 'EUR', line_items: [{ amount: 100, description: 'One', quantity: 1 }] });
    await expect(readVisibleInvoice(platform.db, { accountId: 'acc_other', channels: null, keyChannels: null }, draft.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(readVisibleInvoice(platform.db, { accountId: platform.accountId, channels: ['chan_elsewhere'], keyChannels: null }, draft.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await ok('invoices/delete', { id: draft.id });
    await expect(readVisibleInvoice(platform.db, all(), draft.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
