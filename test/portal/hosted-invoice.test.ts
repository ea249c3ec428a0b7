import { hostedInvoiceToken } from '../../domain/portal/hosted-invoice-token';
import { hostedInvoiceSigningKey } from '../../services/invoices/hosted-invoice-url';
import { usePlatform } from '../support/platform';
import { eventsOf, merchant, providerChargesOf } from '../invoices-payments/fixtures';

const platform = usePlatform();
let m: ReturnType<typeof merchant>;

beforeAll(() => {
  m = merchant(platform);
});

const year = new Date().getUTCFullYear() + 3;
const card = (number: string) => ({ number, exp_month: 12, exp_year: year, cardholder_name: 'Ada Payer' });

async function hosted(action: 'get' | 'pay', body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${platform.baseUrl}/portal/api/hosted-invoices/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

function tokenOf(invoice: { hosted_invoice_url?: string }): string {
  return invoice.hosted_invoice_url!.split('/').pop()!;
}

/** The invoice without its PDF link, which is signed with an expiry counted from each answer. */
function withoutPdfUrl<T extends { pdf_url?: string }>(invoice: T): Omit<T, 'pdf_url'> {
  const { pdf_url: _pdf, ...rest } = invoice;
  return rest;
}

async function auditOf(objectId: string) {
  return platform.db.dashboardAuditEntry.findMany({ where: { accountId: platform.accountId, objectId }, orderBy: { id: 'asc' } });
}

describe('hosted_invoice_url', () => {
  it('is on every issued invoice, answers and events alike, and never on a draft', async () => {
    const customerId = await m.customer();
    const draft = await m.ok('invoices/create', { customer_id: customerId, currency: 'EUR', line_items: [{ amount: 500, description: 'One', quantity: 1 }] });
    expect(draft).not.toHaveProperty('hosted_invoice_url');
    expect(await m.ok('invoices/get', { id: draft.id })).not.toHaveProperty('hosted_invoice_url');

    const issued = await m.ok('invoices/finalize', { id: draft.id });
    expect(issued.hosted_invoice_url).toMatch(new RegExp(`^${platform.baseUrl}/portal/invoices/${draft.id}\\.[A-Za-z0-9_-]{32}$`));
    expect((await m.ok('invoices/get', { id: draft.id })).hosted_invoice_url).toBe(issued.hosted_invoice_url);
    const finalized = (await eventsOf(platform, draft.id)).find((event) => event.eventType === 'INVOICE_FINALIZED')!;
    expect((finalized.data as { invoice: { hosted_invoice_url: string } }).invoice.hosted_invoice_url).toBe(issued.hosted_invoice_url);
  });

  it('is absent without URL_SIGNING_KEY, and no link opens then', async () => {
    const invoice = await m.openInvoice(await m.customer());
    const key = process.env.URL_SIGNING_KEY;
    delete process.env.URL_SIGNING_KEY;
    try {
      expect(await m.ok('invoices/get', { id: invoice.id })).not.toHaveProperty('hosted_invoice_url');
      expect((await hosted('get', { token: tokenOf(invoice) })).status).toBe(404);
    } finally {
      process.env.URL_SIGNING_KEY = key;
    }
  });
});

describe('hosted-invoices/get', () => {
  it('answers the invoice, the account’s name and the payment form, never cached', async () => {
    const invoice = await m.openInvoice(await m.customer());
    const res = await hosted('get', { token: tokenOf(invoice) });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect({ ...res.body, invoice: withoutPdfUrl(res.body.invoice) }).toEqual({
      invoice: withoutPdfUrl(await m.ok('invoices/get', { id: invoice.id })),
      account: { name: 'Test account' },
      payment_provider: { kind: 'SANDBOX' },
    });
  });

  it('answers a wrong link 404 exactly as an unknown invoice, whatever is wrong with it, and a draft’s as well', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId);
    const other = await m.openInvoice(customerId);
    const token = tokenOf(invoice);
    const [id, signature] = token.split('.') as [string, string];
    const tampered = `${id}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    const draft = await m.ok('invoices/create', { customer_id: customerId, currency: 'EUR', line_items: [{ amount: 500, description: 'One', quantity: 1 }] });
    const draftSigned = hostedInvoiceToken(hostedInvoiceSigningKey()!, draft.id);
    const wrong = [tampered, `${other.id}.${signature}`, `inv_01jzzzzzzzzzzzzzzzzzzzzzzz.${signature}`, id, `${token}x`, '', draftSigned];
    const answers = await Promise.all(wrong.map((candidate) => hosted('get', { token: candidate })));
    for (const answer of answers) {
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 404, body: { code: 'NOT_FOUND', message: expect.any(String) } });
      expect(answer.body.message).toBe(answers[0]!.body.message);
    }
    expect((await hosted('pay', { token: tampered, card: card('4242424242424242') })).status).toBe(404);
    expect(await platform.db.paymentInstrument.count({ where: { customerId } })).toBe(0);
  });

  it('refuses a request another site’s page makes', async () => {
    const invoice = await m.openInvoice(await m.customer());
    for (const site of ['cross-site', 'same-site']) {
      const res = await hosted('get', { token: tokenOf(invoice) }, { 'sec-fetch-site': site });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'PERMISSION_DENIED' });
    }
  });
});

describe('hosted-invoices/pay', () => {
  it('saves the card for the invoice’s customer and pays through invoices/pay: PAID, InvoicePaid, audited as the customer', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId);
    const res = await hosted('pay', { token: tokenOf(invoice), card: card('4242 4242 4242 4242') }, { 'user-agent': 'hosted-test' });
    expect(res.status).toBe(200);
    const { invoice: paid, payment } = res.body;
    expect(paid).toMatchObject({ id: invoice.id, status: 'PAID', amount_due: 0, hosted_invoice_url: invoice.hosted_invoice_url });
    expect(payment).toMatchObject({ status: 'SUCCEEDED', amount: 10_000, currency: 'EUR', provider: 'sandbox-alpha' });

    const instrument = await m.ok('payment-instruments/get', { id: payment.payment_instrument_id });
    expect(instrument).toMatchObject({ customer_id: customerId, status: 'ACTIVE' });
    expect((await m.ok('customers/get', { id: customerId })).configuration?.default_payment_instrument_id).toBeUndefined();

    const events = await eventsOf(platform, invoice.id);
    expect(events.map((event) => event.eventType)).toEqual(['INVOICE_CREATED', 'INVOICE_FINALIZED', 'INVOICE_PAID']);
    expect(events[2]!.data).toEqual({ invoice: paid, payment });

    const audited = [...(await auditOf(instrument.id)), ...(await auditOf(invoice.id))];
    expect(audited.map((entry) => ({ actorType: entry.actorType, userId: entry.userId, userEmail: entry.userEmail, action: entry.action, userAgent: entry.userAgent }))).toEqual([
      { actorType: 'CUSTOMER', userId: customerId, userEmail: 'payer@example.com', action: 'payment-instruments/tokenize', userAgent: 'hosted-test' },
      { actorType: 'CUSTOMER', userId: customerId, userEmail: 'payer@example.com', action: 'invoices/pay', userAgent: 'hosted-test' },
    ]);
  });

  it('charges once when the same Idempotency-Key is sent twice', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId);
    const body = { token: tokenOf(invoice), card: card('4242424242424242') };
    const first = await hosted('pay', body, { 'idempotency-key': 'pay-once' });
    const again = await hosted('pay', body, { 'idempotency-key': 'pay-once' });
    expect(first.status).toBe(200);
    expect(first.body.invoice.status).toBe('PAID');
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: first.body });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await providerChargesOf(platform, invoice.id)).toHaveLength(1);
    expect(await platform.db.paymentInstrument.count({ where: { customerId } })).toBe(1);
  });

  it('answers a declined card as invoices/pay does, the invoice still open', async () => {
    const invoice = await m.openInvoice(await m.customer());
    const res = await hosted('pay', { token: tokenOf(invoice), card: card('4000000000000002') });
    expect(res.status).toBe(200);
    expect(res.body.payment).toMatchObject({ status: 'DECLINED', decline_code: 'do_not_honor', retryable: false });
    expect(res.body.invoice).toMatchObject({ status: 'OPEN', amount_due: 10_000 });
    expect((await eventsOf(platform, invoice.id)).map((event) => event.eventType)).toEqual(['INVOICE_CREATED', 'INVOICE_FINALIZED', 'INVOICE_PAYMENT_FAILED']);
  });

  it('refuses an invoice that cannot be paid as invoices/pay does, before saving the card', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId);
    await m.ok('invoices/void', { id: invoice.id });
    const res = await hosted('pay', { token: tokenOf(invoice), card: card('4242424242424242') });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 422,
      body: { code: 'INCOMPATIBLE_STATUS', message: expect.any(String), context: { status: 'VOIDED', allowed_statuses: ['OPEN', 'DUNNING', 'UNPAID'] } },
    });
    expect(await platform.db.paymentInstrument.count({ where: { customerId } })).toBe(0);
    // The page always sends a key: a new key is no retry, and is refused before the card is saved too.
    const keyed = await hosted('pay', { token: tokenOf(invoice), card: card('4242424242424242') }, { 'idempotency-key': 'after-void' });
    expect(keyed.status).toBe(422);
    expect(await platform.db.paymentInstrument.count({ where: { customerId } })).toBe(0);
  });

  it('answers a wrong card with payment-instruments/tokenize’s own refusal', async () => {
    const invoice = await m.openInvoice(await m.customer());
    const res = await hosted('pay', { token: tokenOf(invoice), card: card('4242424242424241') });
    expect({ status: res.status, code: res.body.code, fields: Object.keys(res.body.context?.constraints ?? {}) }).toEqual({ status: 400, code: 'VALIDATION', fields: ['card.number'] });
  });
});
