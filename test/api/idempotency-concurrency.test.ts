import { merchant } from '../invoices-payments/fixtures';
import { subscriptions, MINUTE } from '../subscriptions/fixtures';
import { usePlatform, type ApiResponse } from '../support/platform';

const platform = usePlatform();

const DUPLICATES = 4;

async function ok(path: string, body: unknown) {
  const res = await platform.call(`/v2/${path}`, body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The same request sent DUPLICATES times at once, under one Idempotency-Key, over HTTP. */
function race(path: string, body: unknown, key: string): Promise<ApiResponse[]> {
  const headers = { 'idempotency-key': key };
  return Promise.all(Array.from({ length: DUPLICATES }, () => platform.call(`/v2/${path}`, body, { headers })));
}

/** Every answer is the first one, status and body; all but one are replays. */
function expectOneAnswer(results: ApiResponse[], status: number) {
  for (const res of results) {
    expect([res.status, res.body]).toEqual([status, results[0]!.body]);
  }
  expect(results.filter((res) => res.headers.get('idempotent-replayed') === 'true')).toHaveLength(DUPLICATES - 1);
}

async function eventsFor(invoiceId: string, eventType: string) {
  const rows = await platform.db.outboxEvent.findMany({ where: { eventType } });
  return rows.filter((row) => (row.data as { invoice?: { id: string } }).invoice?.id === invoiceId);
}

async function draft(lineItems: unknown[] = [{ amount: 1000, description: 'Item', quantity: 1 }]) {
  const customer = await ok('customers/create', { type: 'INDIVIDUAL', email: 'ada@example.com', first_name: 'Ada', address: { country: 'DEU' } });
  return ok('invoices/create', { customer_id: customer.id, currency: 'EUR', line_items: lineItems });
}

describe('concurrent duplicates under one Idempotency-Key', () => {
  it('invoices/void: every duplicate gets the winner’s invoice, one InvoiceVoided', async () => {
    const invoice = await draft();
    await ok('invoices/finalize', { id: invoice.id });
    const results = await race('invoices/void', { id: invoice.id }, `void-${invoice.id}`);
    expectOneAnswer(results, 200);
    expect(results[0]!.body.status).toBe('VOIDED');
    expect(await eventsFor(invoice.id, 'INVOICE_VOIDED')).toHaveLength(1);
  });

  it('invoices/finalize: every duplicate gets the OPEN invoice, one InvoiceFinalized', async () => {
    const invoice = await draft();
    const results = await race('invoices/finalize', { id: invoice.id }, `finalize-${invoice.id}`);
    expectOneAnswer(results, 200);
    expect(results[0]!.body.status).toBe('OPEN');
    expect(await eventsFor(invoice.id, 'INVOICE_FINALIZED')).toHaveLength(1);
  });

  it('invoices/finalize refused: one FINALIZATION_FAILED answer and one InvoiceFinalizationFailed', async () => {
    const invoice = await draft([]);
    const results = await race('invoices/finalize', { id: invoice.id }, `finalize-${invoice.id}`);
    expectOneAnswer(results, 422);
    expect(results[0]!.body.code).toBe('FINALIZATION_FAILED');
    expect(await eventsFor(invoice.id, 'INVOICE_FINALIZATION_FAILED')).toHaveLength(1);
  });

  it('invoices/delete: every duplicate gets the winner’s answer, one InvoiceDeleted', async () => {
    const invoice = await draft();
    const results = await race('invoices/delete', { id: invoice.id }, `delete-${invoice.id}`);
    expectOneAnswer(results, 200);
    expect(results[0]!.body).toEqual({ id: invoice.id, deleted: true });
    expect(await eventsFor(invoice.id, 'INVOICE_DELETED')).toHaveLength(1);
  });

  it('webhooks/create: every duplicate gets the one endpoint and its once-shown secret', async () => {
    const url = 'https://hooks.example.com/idempotency-race';
    const results = await race('webhooks/create', { url, event_types: ['INVOICE_PAID'] }, 'webhook-race');
    expectOneAnswer(results, 200);
    expect(results[0]!.body.secret).toMatch(/^wsec_/);
    expect(await platform.db.webhookEndpoint.count({ where: { url } })).toBe(1);
  });

  it('coupons/create: every duplicate gets the one coupon', async () => {
    const results = await race('coupons/create', { code: 'RACE-10', calculation_type: 'PERCENTAGE', calculation_value: 10 }, 'coupon-race');
    expectOneAnswer(results, 200);
    expect(await platform.db.coupon.count({ where: { code: 'RACE-10' } })).toBe(1);
  });

  it('invoices/pay: every duplicate gets the one payment, charged once', async () => {
    const m = merchant(platform);
    const customerId = await m.customer();
    const instrumentId = await m.card(customerId, '4242424242424242');
    const invoice = await m.openInvoice(customerId);
    const results = await race('invoices/pay', { id: invoice.id, payment_instrument_id: instrumentId }, `pay-${invoice.id}`);
    expectOneAnswer(results, 200);
    expect(results[0]!.body.invoice.status).toBe('PAID');
    expect(await platform.db.payment.count({ where: { invoiceId: invoice.id } })).toBe(1);
    expect(await eventsFor(invoice.id, 'INVOICE_PAID')).toHaveLength(1);
  });

  it('subscriptions/cancel, a workflow Update outside our transactions: every duplicate gets the CANCELLED subscription', async () => {
    const s = subscriptions(platform);
    const { customerId } = await s.payer();
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: await s.price(1_000), quantity: 1 }],
      starts_at: await s.soon(),
    });
    await s.sleep(2 * MINUTE);
    await s.statusBecomes(created.id, 'ACTIVE');
    const results = await race('subscriptions/cancel', { id: created.id, mode: 'IMMEDIATELY' }, `cancel-${created.id}`);
    expectOneAnswer(results, 200);
    expect(results[0]!.body.status).toBe('CANCELLED');
    const cancelled = await platform.db.outboxEvent.findMany({ where: { eventType: 'SUBSCRIPTION_CANCELLED' } });
    expect(cancelled.filter((row) => (row.data as { subscription?: { id: string } }).subscription?.id === created.id)).toHaveLength(1);
  });
});
