import { findLedgerDisagreements } from '../../services/customer-balance/ledger-check';
import { usePlatform, type Platform } from '../support/platform';
import { eventsOf, merchant, providerChargesOf, waitFor } from '../invoices-payments/fixtures';

/** docs/customer-balance.md: the operations, the customer object, and the balance at finalization. */
const platform = usePlatform();

const call = (path: string, body: unknown, options?: Parameters<Platform['call']>[2]) => platform.call(`/v2/${path}`, body, options);

async function ok(path: string, body: unknown, options?: Parameters<Platform['call']>[2]) {
  const res = await call(path, body, options);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const customer = () => ok('customers/create', { type: 'INDIVIDUAL', email: 'ada@example.com', address: { country: 'DEU' } });
const adjust = (customerId: string, amount: number, currency = 'EUR') =>
  ok('customer-balance-transactions/create', { customer_id: customerId, currency, amount, description: `Goodwill ${amount}` });
const draft = (customerId: string, amount: number, currency = 'EUR') =>
  ok('invoices/create', { customer_id: customerId, currency, line_items: [{ amount, description: 'Plan', quantity: 1 }] });
const finalize = async (customerId: string, amount: number, currency = 'EUR') => ok('invoices/finalize', { id: (await draft(customerId, amount, currency)).id });
const ledger = (customerId: string, filters?: unknown) => ok('customer-balance-transactions/list', { customer_id: customerId, ...(filters ? { filters } : {}) });
const noDisagreement = async (customerId: string) =>
  expect(await findLedgerDisagreements(platform.db, { accountId: platform.accountId, customerId })).toEqual([]);

describe('customer-balance-transactions', () => {
  it('appends merchant adjustments, shows the balance per currency on the customer, and lists with filters', async () => {
    const cust = await customer();
    expect(cust).not.toHaveProperty('balances');
    const credit = await adjust(cust.id, -1_500);
    expect(credit).toEqual({
      id: expect.stringMatching(/^cbtx_/),
      customer_id: cust.id,
      currency: 'EUR',
      amount: -1_500,
      type: 'ADJUSTMENT',
      description: 'Goodwill -1500',
      ending_balance: -1_500,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
    });
    await adjust(cust.id, 200);
    await adjust(cust.id, -70, 'USD');
    expect((await ok('customers/get', { id: cust.id })).balances).toEqual({ EUR: -1_300, USD: -70 });

    const all = await ledger(cust.id);
    expect(all.items.map((t: { amount: number }) => t.amount)).toEqual([-70, 200, -1_500]);
    expect((await ledger(cust.id, { currency: { operator: 'EQ', value: 'USD' } })).items).toHaveLength(1);
    expect((await ledger(cust.id, { type: { operator: 'EQ', value: 'APPLIED_TO_INVOICE' } })).items).toHaveLength(0);
    expect((await ledger(cust.id, { created_at: { operator: 'RANGE', value: { from: credit.created_at } } })).items).toHaveLength(3);
    expect((await ledger(cust.id, { created_at: { operator: 'RANGE', value: { to: credit.created_at } } })).items).toHaveLength(0);
    const page = await ok('customer-balance-transactions/list', { customer_id: cust.id, pagination: { page_size: 2 } });
    expect(page.items).toHaveLength(2);
    const rest = await ok('customer-balance-transactions/list', { customer_id: cust.id, pagination: { page_size: 2, next_page_token: page.pagination.next_page_token } });
    expect(rest.items.map((t: { id: string }) => t.id)).toEqual([credit.id]);
    await noDisagreement(cust.id);
  });

  it('refuses a zero amount, a missing description and an unknown customer, writing nothing', async () => {
    const cust = await customer();
    const zero = await call('customer-balance-transactions/create', { customer_id: cust.id, currency: 'EUR', amount: 0, description: 'x' });
    expect(zero.status).toBe(400);
    expect(zero.body.context.constraints.amount.type).toBe('MIN');
    const bare = await call('customer-balance-transactions/create', { customer_id: cust.id, currency: 'EUR', amount: -5 });
    expect(bare.status).toBe(400);
    const unknown = await call('customer-balance-transactions/create', { customer_id: 'cust_nobody', currency: 'EUR', amount: -5, description: 'x' });
    expect(unknown.status).toBe(404);
    expect((await ledger(cust.id)).items).toEqual([]);
  });

  it('replays a create under its Idempotency-Key instead of crediting twice', async () => {
    const cust = await customer();
    const body = { customer_id: cust.id, currency: 'EUR', amount: -400, description: 'Once' };
    const headers = { 'idempotency-key': `balance-${cust.id}` };
    const first = await ok('customer-balance-transactions/create', body, { headers });
    const second = await ok('customer-balance-transactions/create', body, { headers });
    expect(second).toEqual(first);
    expect((await ok('customers/get', { id: cust.id })).balances).toEqual({ EUR: -400 });
  });

  it('are in the OpenAPI document, the create with Idempotency-Key, and the customer and invoice objects carry the new fields', async () => {
    const document: any = await (await fetch(`${platform.baseUrl}/openapi.json`)).json();
    const create = document.paths['/v2/customer-balance-transactions/create'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['customer_id', 'currency', 'amount', 'description']);
    expect(create.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }));
    expect(document.paths['/v2/customer-balance-transactions/list'].post.requestBody.content['application/json'].schema.required).toEqual(['customer_id']);
    expect(document.components.schemas.IndividualCustomer.properties.balances).toBeDefined();
    expect(document.components.schemas.Invoice.properties.amount_details.properties.balance_credited).toBeDefined();
  });
});

describe('the balance at finalization', () => {
  it('applies credit in the invoice currency: amount_due drops by it, the ledger names the invoice', async () => {
    const cust = await customer();
    await adjust(cust.id, -300);
    await adjust(cust.id, -999, 'USD');
    const invoice = await finalize(cust.id, 1_000);
    expect(invoice.status).toBe('OPEN');
    expect(invoice.amount_due).toBe(700);
    expect(invoice.amount_details).toEqual({ subtotal: 1_000, discount: 0, taxable: 1_000, tax: 0, balance_applied: 300, balance_credited: 0 });
    const applied = (await ledger(cust.id, { type: { operator: 'EQ', value: 'APPLIED_TO_INVOICE' } })).items;
    expect(applied).toEqual([expect.objectContaining({ amount: 300, invoice_id: invoice.id, currency: 'EUR', ending_balance: 0 })]);
    expect((await ok('customers/get', { id: cust.id })).balances).toEqual({ EUR: 0, USD: -999 });
    expect({ ...(await ok('invoices/get', { id: invoice.id })), pdf_url: undefined }).toEqual({ ...invoice, pdf_url: undefined });
    await noDisagreement(cust.id);
  });

  it('marks an invoice the credit covers PAID without a charge, credit left over stays', async () => {
    const cust = await customer();
    await adjust(cust.id, -5_000);
    const invoice = await ok('invoices/finalize', {
      id: (await ok('invoices/create', { customer_id: cust.id, currency: 'EUR', collection_method: 'CHARGE_AUTOMATICALLY', line_items: [{ amount: 1_200, description: 'Plan', quantity: 1 }] })).id,
    });
    expect(invoice).toMatchObject({ status: 'PAID', amount_due: 0, amount_details: { balance_applied: 1_200 } });
    expect(invoice.paid_at).toBeDefined();
    expect(await platform.db.payment.count({ where: { invoiceId: invoice.id } })).toBe(0);
    const events = await platform.db.outboxEvent.findMany({ where: { eventType: { in: ['INVOICE_FINALIZED', 'INVOICE_PAID'] } } });
    expect(events.filter((e) => (e.data as { invoice: { id: string } }).invoice.id === invoice.id).map((e) => e.eventType).sort()).toEqual(['INVOICE_FINALIZED', 'INVOICE_PAID']);
    expect((await ok('customers/get', { id: cust.id })).balances).toEqual({ EUR: -3_800 });
  });

  it('adds a debit balance to what is due, shown as a negative balance_applied', async () => {
    const cust = await customer();
    await adjust(cust.id, 250);
    const invoice = await finalize(cust.id, 1_000);
    expect(invoice).toMatchObject({ status: 'OPEN', total_amount: 1_000, amount_due: 1_250, amount_details: { balance_applied: -250, balance_credited: 0 } });
    expect((await ok('customers/get', { id: cust.id })).balances).toEqual({ EUR: 0 });
    await noDisagreement(cust.id);
  });

  it('gives the applied balance back when the invoice is voided', async () => {
    const cust = await customer();
    await adjust(cust.id, -400);
    const invoice = await finalize(cust.id, 1_000);
    await ok('invoices/void', { id: invoice.id });
    expect((await ok('customers/get', { id: cust.id })).balances).toEqual({ EUR: -400 });
    const rows = (await ledger(cust.id, { type: { operator: 'EQ', value: 'APPLIED_TO_INVOICE' } })).items;
    expect(rows.map((t: { amount: number; invoice_id: string }) => [t.amount, t.invoice_id])).toEqual([
      [-400, invoice.id],
      [400, invoice.id],
    ]);
    await noDisagreement(cust.id);
  });

  it('never spends one credit twice: 50 concurrent finalizations against it', async () => {
    const cust = await customer();
    const granted = 10_000;
    await adjust(cust.id, -granted);
    const drafts = await Promise.all(Array.from({ length: 50 }, () => draft(cust.id, 300)));
    const finalized = await Promise.all(drafts.map((d) => ok('invoices/finalize', { id: d.id })));
    const applied = finalized.map((invoice) => invoice.amount_details.balance_applied as number);
    for (const invoice of finalized) {
      expect(invoice.amount_details.balance_applied).toBeGreaterThanOrEqual(0);
      expect(invoice.amount_details.balance_applied).toBeLessThanOrEqual(invoice.total_amount);
      expect(invoice.amount_due).toBe(invoice.total_amount - invoice.amount_details.balance_applied);
    }
    const spent = applied.reduce((sum, amount) => sum + amount, 0);
    // 50 × 300 is more than was granted: all of it is spent, none of it twice.
    expect(spent).toBe(granted);
    expect(applied.filter((amount) => amount === 300)).toHaveLength(Math.floor(granted / 300));
    const rows = await platform.db.customerBalanceTransaction.findMany({ where: { customerId: cust.id } });
    expect(rows.reduce((sum, row) => sum + row.amount, 0)).toBe(-granted + spent);
    expect((await ok('customers/get', { id: cust.id })).balances).toEqual({ EUR: 0 });
    await noDisagreement(cust.id);
  });
});

describe('collection of an invoice that took balance', () => {
  it('charges amount_due, not the total; the dunning payload carries amount_due and both balance fields', async () => {
    const m = merchant(platform);
    const customerId = await m.customer();
    await m.setDefaultInstrument(customerId, await m.card(customerId, '4000000000009995'));
    await adjust(customerId, -4_000);
    const invoice = await m.openInvoice(customerId, { collection_method: 'CHARGE_AUTOMATICALLY' });
    await waitFor('dunning', async () => (await platform.db.invoice.findUniqueOrThrow({ where: { id: invoice.id } })).status === 'DUNNING');
    const started = (await eventsOf(platform, invoice.id)).find((e) => e.eventType === 'INVOICE_DUNNING_STARTED')!;
    expect((started.data as { invoice: unknown }).invoice).toMatchObject({
      status: 'DUNNING',
      total_amount: 10_000,
      amount_due: 6_000,
      amount_details: { subtotal: 10_000, discount: 0, taxable: 10_000, tax: 0, balance_applied: 4_000, balance_credited: 0 },
    });
    // Every attempt at the provider (routing may try more than one) asked for amount_due.
    const charged = (await providerChargesOf(platform, invoice.id)).map((charge) => charge.amount);
    expect(charged.length).toBeGreaterThan(0);
    expect(new Set(charged)).toEqual(new Set([6_000]));

    // Paid by hand with a good card: the payment takes 6,000 and nothing is left due.
    const paid = await ok('invoices/pay', { id: invoice.id, payment_instrument_id: await m.card(customerId, '4242424242424242') });
    expect(paid.payment).toMatchObject({ status: 'SUCCEEDED', amount: 6_000 });
    expect(await platform.db.invoice.findUniqueOrThrow({ where: { id: invoice.id } })).toMatchObject({ status: 'PAID', amountPaid: 6_000, amountDue: 0 });
  });
});
