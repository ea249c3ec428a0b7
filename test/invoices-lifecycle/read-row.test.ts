import { readChargeableInvoice, readVisibleInvoice } from '../../services/invoices/invoice-read';
import { updateInvoiceColumns } from '../../services/invoices/invoice-columns-update';
import { customerSnapshotSelect, invoiceSelect } from '../../services/invoices/invoice-object';
import { chargeableInvoiceSelect } from '../../services/payments/settle';
import { findAccountInvoiceCustomer, findInvoiceCustomer, findInvoiceStatus, visibleInvoice } from '../../services/invoices/repository';
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

  const prismaCustomer = (id: string) => platform.db.customer.findUniqueOrThrow({ where: { id }, select: customerSnapshotSelect });

  async function prismaReading(id: string) {
    const row = await visibleInvoice(platform.db, all(), id);
    return { row, customer: row.customerSnapshot === null ? await prismaCustomer(row.customerId) : undefined };
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

  it('reads the customer an invoice snapshots (by id, and in the caller’s account) and an invoice’s status as Prisma does, on the pool and in a transaction', async () => {
    const customer = await ok('customers/create', {
      type: 'INDIVIDUAL',
      email: 'books@example.com',
      first_name: 'Grace',
      last_name: 'Hopper',
      phone: '+442071234567',
      address: { country: 'FRA', city: 'Paris', line1: '1 rue' },
      tax: { taxability: 'EXEMPT' },
    });
    const expected = await prismaCustomer(customer.id);
    expect(await findInvoiceCustomer(platform.db, customer.id)).toEqual(expected);
    expect(await platform.db.$transaction((tx) => findInvoiceCustomer(tx, customer.id))).toEqual(expected);
    await expect(findInvoiceCustomer(platform.db, 'cus_01nonexistent000000000000')).rejects.toThrow('has no row');
    expect(await findAccountInvoiceCustomer(platform.db, platform.accountId, customer.id)).toEqual(expected);
    expect(await platform.db.$transaction((tx) => findAccountInvoiceCustomer(tx, platform.accountId, customer.id))).toEqual(expected);
    expect(await findAccountInvoiceCustomer(platform.db, 'acc_other', customer.id)).toBeNull();

    const draft = await ok('invoices/create', { customer_id: customer.id, currency: 'EUR', line_items: [{ amount: 100, description: 'One', quantity: 1 }] });
    expect(await platform.db.$transaction((tx) => findInvoiceStatus(tx, draft.id))).toBe('DRAFT');
    expect(await findInvoiceStatus(platform.db, 'inv_01nonexistent000000000000')).toBeNull();
  });

  it('updates an invoice’s columns and returns the row as Prisma reads it afterwards, in the caller’s transaction', async () => {
    const customer = await ok('customers/create', { type: 'INDIVIDUAL', email: 'lin@example.com', address: { country: 'DEU' } });
    const draft = await ok('invoices/create', {
      customer_id: customer.id,
      currency: 'EUR',
      line_items: [{ amount: 250, description: 'Taxed', quantity: 2, tax: { mode: 'EXCLUSIVE', rate: 19 } }],
      metadata: { k: 'v' },
    });
    const before = await visibleInvoice(platform.db, all(), draft.id);
    const at = new Date('2026-11-25T06:00:00.123456Z');
    const snapshot = { id: customer.id, email: 'lin@example.com', address: { country: 'DEU' }, nested: { list: [1, 'two', null] } };
    const { updated, prisma } = await platform.db.$transaction(async (tx) => {
      const updated = await updateInvoiceColumns(tx, before, {
        status: 'OPEN',
        customerSnapshot: snapshot,
        amountDetails: { ...(before.amountDetails as object), balance_applied: -7 },
        amountDue: 588,
        paymentInProgressId: 'pay_key',
        collectionAttemptsSettled: 2,
        finalizedAt: at,
        updatedAt: at,
      });
      return { updated, prisma: await tx.invoice.findUniqueOrThrow({ where: { id: draft.id }, select: invoiceSelect }) };
    });
    expect(updated).toEqual(prisma);
    expect(updated).toMatchObject({ status: 'OPEN', customerSnapshot: snapshot, amountDue: 588, paymentInProgressId: 'pay_key', finalizedAt: at, metadata: { k: 'v' } });
    expect(await platform.db.invoice.findUniqueOrThrow({ where: { id: draft.id }, select: { collectionAttemptsSettled: true } })).toEqual({ collectionAttemptsSettled: 2 });

    const cleared = await platform.db.$transaction((tx) => updateInvoiceColumns(tx, updated, { paymentInProgressId: null, paidAt: at, amountPaid: 588, amountDue: 0 }));
    expect(cleared).toEqual(await platform.db.invoice.findUniqueOrThrow({ where: { id: draft.id }, select: invoiceSelect }));
    expect(cleared).toMatchObject({ paymentInProgressId: null, amountPaid: 588, amountDue: 0, paidAt: at, status: 'OPEN' });
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
