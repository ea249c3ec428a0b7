import { invoicePdfUrl } from '../../services/invoices/pdf-url';
import { usePlatform } from '../support/platform';
import { insertInvoice } from './fixtures';
import { pageCount, pdfTexts } from './pdf-text';

const platform = usePlatform();

const HOUR = 60 * 60 * 1000;

function urlOf(invoiceId: string, now = new Date(), ttlSeconds?: number): string {
  const url = invoicePdfUrl(invoiceId, now, ttlSeconds);
  if (!url) throw new Error('invoicePdfUrl gave no link: URL_SIGNING_KEY is not set.');
  return url;
}

async function fetchPdf(url: string) {
  const response = await fetch(url);
  const body = Buffer.from(await response.arrayBuffer());
  return { response, body, texts: response.headers.get('content-type') === 'application/pdf' ? pdfTexts(body) : [] };
}

async function fetchRefusal(url: string) {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, body: (await response.json()) as { code: string; message: string; context?: Record<string, unknown> } };
}

/** The same link with one query parameter replaced. */
function withParam(url: string, name: string, value: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  return parsed.toString();
}

describe('invoice PDF links', () => {
  it('points at this platform with a 30-day expiry, or the given TTL', () => {
    const now = new Date('2026-05-01T12:00:00Z');
    const url = new URL(urlOf('inv_x', now));
    expect(`${url.origin}${url.pathname}`).toBe(`${platform.baseUrl}/files/invoices/inv_x.pdf`);
    expect(url.searchParams.get('expires')).toBe(String(now.getTime() / 1000 + 30 * 86_400));
    expect(url.searchParams.get('signature')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new URL(urlOf('inv_x', now, 7 * 86_400)).searchParams.get('expires')).toBe(String(now.getTime() / 1000 + 7 * 86_400));
  });
});

describe('GET /files/invoices/:id.pdf', () => {
  it('serves an issued invoice as a PDF with the frozen customer, the lines and the totals', async () => {
    const id = await insertInvoice(platform, {
      lines: [
        { description: 'Consulting, March', amount: 1000, quantity: 1, discount: 100, tax: { mode: 'EXCLUSIVE', rate: '19', amount: 171 } },
        { description: 'Stickers from Łódź – Erdős', amount: 25, quantity: 7, discount: 12 },
      ],
      amountPaid: 234,
      notes: 'Thank you for your business.',
    });
    const { response, body, texts } = await fetchPdf(urlOf(id));

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="${id}.pdf"`);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(body.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);

    const text = texts.join('\n');
    expect(text).toContain('Test account');
    expect(text).toContain(`Invoice ${id}`);
    expect(texts).toEqual(expect.arrayContaining(['OPEN', '2026-03-01 09:30 UTC', '2026-03-31 00:00 UTC']));
    expect(texts).toEqual(expect.arrayContaining(['Ada Lovelace', 'ada@example.com', '12 St James Sq', 'SW1Y 4JH London', 'GBR']));
    expect(text).not.toContain('changed-since@example.com');
    // Line cells: description, quantity, unit amount, discount, tax mode/rate, tax, line total.
    expect(texts).toEqual(expect.arrayContaining(['Consulting, March', '10.00', '1.00', 'EXCLUSIVE 19%', '1.71', '10.71']));
    // Characters the built-in font lacks lose their mark or become "?" rather than wrong glyphs.
    expect(texts).toEqual(expect.arrayContaining(['Stickers from ?ódz – Erdos', '7', '0.25', '0.12', 'none', '0.00', '1.63']));
    // Totals: subtotal 1175, discount 112, tax 171, total 1234, paid 234, refunded 0, due 1000.
    expect(texts).toEqual(
      expect.arrayContaining(['11.75 EUR', '1.12 EUR', '1.71 EUR', '12.34 EUR', '2.34 EUR', '0.00 EUR', '10.00 EUR']),
    );
    expect(texts.indexOf('Total')).toBeGreaterThan(-1);
    expect(texts[texts.indexOf('Total') + 1]).toBe('12.34 EUR');
    expect(texts[texts.indexOf('Amount due') + 1]).toBe('10.00 EUR');
    expect(text).toContain('Thank you for your business.');
  });

  it.each([
    ['JPY', 1234, '1234 JPY'],
    ['BHD', 1234, '1.234 BHD'],
    ['BHD', 1_234_567, '1234.567 BHD'],
    ['EUR', 5, '0.05 EUR'],
  ])('formats %s %i minor units as %s, from the integer', async (currency, amount, shown) => {
    const id = await insertInvoice(platform, { currency, lines: [{ description: 'One', amount, quantity: 1 }] });
    const { response, texts } = await fetchPdf(urlOf(id));
    expect(response.status).toBe(200);
    expect(texts[texts.indexOf('Total') + 1]).toBe(shown);
  });

  it('shows an INCLUSIVE rate with decimals and keeps its tax out of the line total', async () => {
    const id = await insertInvoice(platform, {
      lines: [{ description: 'Book', amount: 1075, quantity: 2, tax: { mode: 'INCLUSIVE', rate: '7.5', amount: 150 } }],
    });
    const { texts } = await fetchPdf(urlOf(id));
    expect(texts).toEqual(expect.arrayContaining(['INCLUSIVE 7.5%', '1.50', '21.50']));
    expect(texts[texts.indexOf('Total') + 1]).toBe('21.50 EUR');
  });

  it('serves PAID and VOIDED invoices, and breaks a long invoice over pages', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => ({ description: `Item number ${i + 1}`, amount: 100, quantity: 1 }));
    const paid = await insertInvoice(platform, { status: 'PAID', lines, amountPaid: 6000, amountRefunded: 1500 });
    const { response, body, texts } = await fetchPdf(urlOf(paid));
    expect(response.status).toBe(200);
    expect(pageCount(body)).toBeGreaterThan(1);
    expect(texts).toEqual(expect.arrayContaining(['PAID', 'Item number 1', 'Item number 60']));
    expect(texts[texts.indexOf('Refunded') + 1]).toBe('15.00 EUR');
    expect(texts[texts.indexOf('Amount due') + 1]).toBe('0.00 EUR');

    const voided = await insertInvoice(platform, { status: 'VOIDED' });
    const second = await fetchPdf(urlOf(voided));
    expect(second.response.status).toBe(200);
    expect(second.texts).toContain('VOIDED');
  });

  it('opens the pdf_url that invoices/finalize and invoices/get answer with, and none for a draft', async () => {
    const customer = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'grace@example.com', first_name: 'Grace' });
    expect(customer.status).toBe(200);
    const draft = await platform.call('/v2/invoices/create', {
      customer_id: customer.body.id,
      currency: 'BHD',
      line_items: [{ description: 'Compiler', amount: 1234, quantity: 1 }],
    });
    expect(draft.status).toBe(200);
    expect(draft.body.pdf_url).toBeUndefined();
    const finalized = await platform.call('/v2/invoices/finalize', { id: draft.body.id });
    expect(finalized.status).toBe(200);
    const got = await platform.call('/v2/invoices/get', { id: draft.body.id });
    for (const url of [finalized.body.pdf_url, got.body.pdf_url]) {
      expect(url).toMatch(new RegExp(`^${platform.baseUrl}/files/invoices/${draft.body.id}\\.pdf\\?expires=\\d+&signature=`));
      const { response, texts } = await fetchPdf(url);
      expect(response.status).toBe(200);
      expect(texts).toEqual(expect.arrayContaining(['grace@example.com', 'Compiler', '1.234']));
      expect(texts[texts.indexOf('Total') + 1]).toBe('1.234 BHD');
    }
  });

  it('answers with a pdf_url valid 30 days, and the event carries one as long-lived, so a webhook retried days later opens', async () => {
    const customer = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'ida@example.com' });
    const draft = await platform.call('/v2/invoices/create', { customer_id: customer.body.id, currency: 'EUR', line_items: [{ description: 'Ink', amount: 500, quantity: 1 }] });
    const finalized = await platform.call('/v2/invoices/finalize', { id: draft.body.id });
    expect(finalized.status).toBe(200);
    const event = await platform.db.outboxEvent.findFirstOrThrow({
      where: { eventType: 'INVOICE_FINALIZED', data: { path: ['invoice', 'id'], equals: draft.body.id } },
    });
    const links = [
      { where: 'invoices/finalize', url: finalized.body.pdf_url as string, from: Date.parse(finalized.body.updated_at) },
      { where: 'InvoiceFinalized', url: (event.data as any).invoice.pdf_url as string, from: event.occurredAt.getTime() },
    ];
    for (const { where, url, from } of links) {
      // Links are signed to the whole second.
      const validDays = (Number(new URL(url).searchParams.get('expires')) * 1000 - Math.floor(from / 1000) * 1000) / (24 * HOUR);
      expect({ where, atLeast30Days: validDays >= 30 }).toEqual({ where, atLeast30Days: true });
    }
  });

  describe('refusals', () => {
    let id: string;
    let url: string;

    beforeAll(async () => {
      id = await insertInvoice(platform);
      url = urlOf(id);
    });

    it('answers 403 PERMISSION_DENIED in the error envelope to a link for another invoice', async () => {
      const other = await insertInvoice(platform);
      const res = await fetchRefusal(url.replace(id, other));
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 'PERMISSION_DENIED', message: expect.stringContaining('not valid') });
      expect(res.headers.get('request-id')).toMatch(/^req_/);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('answers 403 to a changed expiry, a changed or missing signature, or no query at all', async () => {
      const expires = Number(new URL(url).searchParams.get('expires'));
      const signature = new URL(url).searchParams.get('signature')!;
      const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
      for (const tampered of [
        withParam(url, 'expires', String(expires + 86_400)),
        withParam(url, 'signature', flipped),
        url.replace(/&signature=[^&]*/, ''),
        url.split('?')[0]!,
        `${url}&expires=${expires}`,
      ]) {
        const res = await fetchRefusal(tampered);
        expect({ tampered, status: res.status, code: res.body.code }).toEqual({ tampered, status: 403, code: 'PERMISSION_DENIED' });
      }
    });

    it('answers 403 with the moment it expired to a link past its expiry', async () => {
      const issuedAt = new Date(Date.now() - 31 * 24 * HOUR);
      const res = await fetchRefusal(urlOf(id, issuedAt));
      expect(res.status).toBe(403);
      const expiredAt = new Date(Math.floor(issuedAt.getTime() / 1000) * 1000 + 30 * 24 * HOUR).toISOString().replace('Z', '000Z');
      expect(res.body).toEqual({ code: 'PERMISSION_DENIED', message: expect.stringContaining('expired'), context: { expired_at: expiredAt } });
    });

    it('answers 404 for an unknown invoice, a DRAFT and a deleted one, even with a valid link', async () => {
      const draft = await insertInvoice(platform, { status: 'DRAFT', snapshot: null });
      const deletedDraft = await insertInvoice(platform, { status: 'DRAFT', snapshot: null, deletedAt: new Date() });
      // Deletion alone refuses, whatever the status says.
      const deletedOpen = await insertInvoice(platform, { status: 'OPEN', deletedAt: new Date() });
      for (const unknown of ['inv_01jzzzzzzzzzzzzzzzzzzzzzzz', draft, deletedDraft, deletedOpen]) {
        const res = await fetchRefusal(urlOf(unknown));
        expect({ unknown, status: res.status, body: res.body }).toEqual({
          unknown,
          status: 404,
          body: { code: 'NOT_FOUND', message: `Invoice ${unknown} does not exist.` },
        });
      }
    });
  });
});
