import { appendBalanceTransaction } from '../../services/customer-balance/append-transaction';
import { eventTypesOf } from '../invoices-payments/fixtures';
import { usePlatform } from '../support/platform';
import { creditNoteEvents, creditNoteMerchant } from './fixtures';

const platform = usePlatform();
let m: ReturnType<typeof creditNoteMerchant>;

beforeAll(() => {
  m = creditNoteMerchant(platform);
});

const invoiceRow = (id: string) => platform.db.invoice.findUniqueOrThrow({ where: { id } });
const balanceOf = async (customerId: string) =>
  (await platform.db.customerBalanceTransaction.findMany({ where: { customerId, currency: 'EUR' } })).reduce((sum, t) => sum + t.amount, 0);

describe('credit-notes/create against what is still owed', () => {
  it('lowers amount_due by a lump sum, then settles the invoice PAID when nothing is left, with its events', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId, { amount: 10_000 });
    const first = await m.call('create', { invoice_id: invoice.id, amount: 4_000, reason: 'ORDER_CHANGE', memo: 'Two seats fewer' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      id: expect.stringMatching(/^cn_/),
      invoice_id: invoice.id,
      customer_id: customerId,
      status: 'ISSUED',
      origin: 'API',
      reason: 'ORDER_CHANGE',
      memo: 'Two seats fewer',
      currency: 'EUR',
      total_amount: 4_000,
      tax_amount: 0,
      pre_payment_amount: 4_000,
      post_payment_amount: 0,
      refund_amount: 0,
      balance_credit_amount: 0,
      out_of_band_amount: 0,
      lines: [{ description: 'Credit', taxable_amount: 4_000, tax_amount: 0, total_amount: 4_000 }],
    });
    expect(await m.ok('invoices/get', { id: invoice.id })).toMatchObject({ status: 'OPEN', total_amount: 10_000, amount_due: 6_000 });

    const rest = await m.call('create', { invoice_id: invoice.id, amount: 6_000, reason: 'OTHER' });
    expect(rest.body).toMatchObject({ pre_payment_amount: 6_000, number: first.body.number + 1 });
    expect(await m.ok('invoices/get', { id: invoice.id })).toMatchObject({ status: 'PAID', amount_due: 0, paid_at: expect.any(String) });
    expect((await eventTypesOf(platform, invoice.id)).slice(-1)).toEqual(['INVOICE_PAID']);
    const events = await creditNoteEvents(platform, rest.body.id);
    expect(events.map((e) => e.eventType)).toEqual(['CREDIT_NOTE_CREATED']);
    expect(events[0]!.data).toMatchObject({ credit_note: { ...rest.body, pdf_url: expect.any(String) }, invoice: { id: invoice.id, status: 'PAID', amount_due: 0 } });

    const over = await m.call('create', { invoice_id: invoice.id, amount: 1, reason: 'OTHER' });
    expect({ status: over.status, code: over.body.code, context: over.body.context }).toEqual({
      status: 422,
      code: 'CREDIT_NOTE_EXCEEDS_INVOICE',
      context: { total_amount: 1, creditable_amount: 0, amount_due: 0, post_payment_creditable: 0 },
    });
  });

  it('charges only the lowered amount_due when the invoice is then paid, and leaves nothing due', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId, { amount: 10_000 });
    await m.ok('credit-notes/create', { invoice_id: invoice.id, amount: 2_500, reason: 'PRODUCT_UNSATISFACTORY' });
    const paid = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: await m.card(customerId, '4242424242424242') });
    expect(paid.payment).toMatchObject({ status: 'SUCCEEDED', amount: 7_500 });
    expect(paid.invoice).toMatchObject({ status: 'PAID', amount_due: 0 });
    expect(await invoiceRow(invoice.id)).toMatchObject({ amountPaid: 7_500, amountDue: 0 });
  });

  it('refuses invoices that are not finalized, or voided, with INCOMPATIBLE_STATUS', async () => {
    const customerId = await m.customer();
    const draft = await m.ok('invoices/create', { customer_id: customerId, currency: 'EUR', line_items: [{ amount: 100, description: 'x', quantity: 1 }] });
    const refused = await m.call('create', { invoice_id: draft.id, amount: 50, reason: 'OTHER' });
    expect({ status: refused.status, code: refused.body.code, context: refused.body.context }).toEqual({
      status: 422,
      code: 'INCOMPATIBLE_STATUS',
      context: { status: 'DRAFT', allowed_statuses: ['OPEN', 'DUNNING', 'UNPAID', 'PAID'] },
    });
    const voided = await m.openInvoice(customerId);
    await m.ok('invoices/void', { id: voided.id });
    expect((await m.call('preview', { invoice_id: voided.id, amount: 50, reason: 'OTHER' })).body.context.status).toBe('VOIDED');
    const unknown = await m.call('create', { invoice_id: 'inv_01jzzzzzzzzzzzzzzzzzzzzzzz', amount: 50, reason: 'OTHER' });
    expect(unknown.status).toBe(404);
  });

  it('validates the body: amount or lines, a known reason, quantity or amount per line', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId);
    const both = await m.call('create', { invoice_id: invoice.id, amount: 1, lines: [{ line_item_id: invoice.line_items[0].id, quantity: 1 }], reason: 'OTHER' });
    expect(both.status).toBe(400);
    expect(both.body.context.constraints.amount.type).toBe('INVALID');
    const neither = await m.call('create', { invoice_id: invoice.id, reason: 'OTHER' });
    expect(neither.body.context.constraints.amount.type).toBe('REQUIRED');
    expect((await m.call('create', { invoice_id: invoice.id, amount: 1, reason: 'BORED' })).body.context.constraints.reason.type).toBe('ENUM');
    const line = await m.call('create', { invoice_id: invoice.id, lines: [{ line_item_id: invoice.line_items[0].id }], reason: 'OTHER' });
    expect(line.body.context.constraints['lines[0].quantity'].type).toBe('REQUIRED');
    expect(await platform.db.creditNote.count({ where: { invoiceId: invoice.id } })).toBe(0);
  });
});

describe('credit notes by invoice line', () => {
  it('credits units and amounts of lines, taxed with each line’s mode and rate, and never more than the line', async () => {
    const { invoice } = await m.taxedInvoice();
    expect(invoice.total_amount).toBe(6_220);
    const [seats, books, setup] = invoice.line_items as Array<{ id: string }>;
    const preview = await m.call('preview', {
      invoice_id: invoice.id,
      reason: 'ORDER_CHANGE',
      lines: [
        { line_item_id: seats!.id, quantity: 1 },
        { line_item_id: books!.id, quantity: 1 },
        { line_item_id: setup!.id, amount: 200 },
      ],
    });
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      invoice_id: invoice.id,
      customer_id: invoice.customer.id,
      currency: 'EUR',
      reason: 'ORDER_CHANGE',
      lines: [
        { line_item_id: seats!.id, description: 'Seats', quantity: 1, taxable_amount: 1_000, tax_amount: 190, total_amount: 1_190, tax: { mode: 'EXCLUSIVE', rate: 19 } },
        { line_item_id: books!.id, description: 'Books', quantity: 1, taxable_amount: 1_075, tax_amount: 75, total_amount: 1_075, tax: { mode: 'INCLUSIVE', rate: 7.5 } },
        { line_item_id: setup!.id, description: 'Setup', taxable_amount: 200, tax_amount: 0, total_amount: 200 },
      ],
      total_amount: 2_465,
      tax_amount: 265,
      pre_payment_amount: 2_465,
      post_payment_amount: 0,
      refund_amount: 0,
      balance_credit_amount: 0,
      out_of_band_amount: 0,
      invoice_amount_due: 3_755,
    });
    // A preview writes nothing.
    expect(await platform.db.creditNote.count({ where: { invoiceId: invoice.id } })).toBe(0);
    expect((await invoiceRow(invoice.id)).amountDue).toBe(6_220);

    const created = await m.call('create', {
      invoice_id: invoice.id,
      reason: 'ORDER_CHANGE',
      lines: [
        { line_item_id: seats!.id, quantity: 1 },
        { line_item_id: books!.id, quantity: 1 },
        { line_item_id: setup!.id, amount: 200 },
      ],
    });
    const { id, number, channel_id, status, origin, pdf_url, created_at, updated_at, lines, ...money } = created.body;
    const { invoice_amount_due, lines: previewLines, ...previewMoney } = preview.body;
    expect(money).toEqual(previewMoney);
    expect(lines.map(({ id: lineId, ...line }: { id: string }) => (expect(lineId).toMatch(/^cnl_/), line))).toEqual(previewLines);
    expect((await invoiceRow(invoice.id)).amountDue).toBe(invoice_amount_due);

    const tooMany = await m.call('create', { invoice_id: invoice.id, reason: 'OTHER', lines: [{ line_item_id: seats!.id, quantity: 3 }] });
    expect({ status: tooMany.status, code: tooMany.body.code, context: tooMany.body.context }).toEqual({
      status: 422,
      code: 'CREDIT_NOTE_EXCEEDS_LINE',
      context: { field: 'lines[0]', line_item_id: seats!.id, remaining_quantity: 2, remaining_amount: 2_000 },
    });
    const notOurs = await m.call('create', { invoice_id: invoice.id, reason: 'OTHER', lines: [{ line_item_id: 'ili_01jzzzzzzzzzzzzzzzzzzzzzzz', quantity: 1 }] });
    expect(notOurs.body.code).toBe('INVOICE_LINE_ITEM_NOT_FOUND');

    // The rest of every line: the notes together give back exactly the invoice, tax included.
    const rest = await m.ok('credit-notes/create', {
      invoice_id: invoice.id,
      reason: 'ORDER_CHANGE',
      lines: [
        { line_item_id: seats!.id, quantity: 2 },
        { line_item_id: books!.id, quantity: 1 },
        { line_item_id: setup!.id, amount: 300 },
      ],
    });
    expect(rest.lines.map((line: { tax_amount: number }) => line.tax_amount)).toEqual([380, 75, 0]);
    expect(created.body.tax_amount + rest.tax_amount).toBe(570 + 150);
    expect(created.body.total_amount + rest.total_amount).toBe(6_220);
    expect(await m.ok('invoices/get', { id: invoice.id })).toMatchObject({ status: 'PAID', amount_due: 0 });
  });

  it('rounds each part half up as the invoice does, and the parts’ tax adds up to the line’s', async () => {
    const customerId = await m.customer();
    await m.ok('customers/patch', { id: customerId, address: { country: 'DEU' } });
    const draft = await m.ok('invoices/create', {
      customer_id: customerId,
      currency: 'EUR',
      line_items: [{ amount: 20, description: 'Tiny', quantity: 1, tax: { mode: 'EXCLUSIVE', rate: 5 } }],
    });
    const invoice = await m.ok('invoices/finalize', { id: draft.id });
    expect(invoice.line_items[0].amount_details.tax).toBe(1);
    const lineId = invoice.line_items[0].id;
    const half = await m.ok('credit-notes/create', { invoice_id: invoice.id, reason: 'OTHER', lines: [{ line_item_id: lineId, amount: 10 }] });
    // 5 % of 10 is 0.5: half up, as on invoices.
    expect(half.lines[0]).toMatchObject({ taxable_amount: 10, tax_amount: 1, total_amount: 11 });
    const other = await m.ok('credit-notes/create', { invoice_id: invoice.id, reason: 'OTHER', lines: [{ line_item_id: lineId, amount: 10 }] });
    expect(other.lines[0]).toMatchObject({ taxable_amount: 10, tax_amount: 0, total_amount: 10 });
    expect(await m.ok('invoices/get', { id: invoice.id })).toMatchObject({ status: 'PAID', amount_due: 0 });
  });
});

describe('credit notes against money already paid', () => {
  it('splits it between a refund (one refund row), the customer balance and out of band, as asked', async () => {
    const { customerId, invoice, payment } = await m.paidInvoice(10_000);
    const mismatch = await m.call('create', { invoice_id: invoice.id, amount: 6_000, reason: 'OTHER', refund_amount: 1_000 });
    expect({ status: mismatch.status, code: mismatch.body.code, context: mismatch.body.context }).toEqual({
      status: 422,
      code: 'CREDIT_NOTE_SPLIT_MISMATCH',
      context: { total_amount: 6_000, pre_payment_amount: 0, post_payment_amount: 6_000, refund_amount: 1_000, balance_credit_amount: 0, out_of_band_amount: 0 },
    });

    const note = await m.ok('credit-notes/create', {
      invoice_id: invoice.id,
      amount: 6_000,
      reason: 'PRODUCT_UNSATISFACTORY',
      refund_amount: 3_000,
      balance_credit_amount: 2_000,
      out_of_band_amount: 1_000,
    });
    expect(note).toMatchObject({
      pre_payment_amount: 0,
      post_payment_amount: 6_000,
      refund_amount: 3_000,
      balance_credit_amount: 2_000,
      out_of_band_amount: 1_000,
      refund_id: expect.stringMatching(/^rfnd_/),
      balance_transaction_id: expect.stringMatching(/^cbtx_/),
    });
    const refunds = await platform.db.refund.findMany({ where: { invoiceId: invoice.id } });
    expect(refunds).toEqual([expect.objectContaining({ id: note.refund_id, amount: 3_000, status: 'SUCCEEDED', paymentId: payment.id })]);
    expect(await platform.db.sandboxProviderRefund.count({ where: { amount: 3_000, chargeId: (await platform.db.payment.findUniqueOrThrow({ where: { id: payment.id } })).providerChargeId! } })).toBe(1);
    expect(await platform.db.customerBalanceTransaction.findMany({ where: { customerId } })).toEqual([
      expect.objectContaining({ id: note.balance_transaction_id, amount: -2_000, type: 'CREDIT_NOTE', creditNoteId: note.id, invoiceId: invoice.id }),
    ]);
    expect(await m.ok('invoices/get', { id: invoice.id })).toMatchObject({ status: 'PAID', amount_due: 0 });

    // 4,000 of the payment is left to give back, by notes and refunds together.
    await m.ok('invoices/refund', { id: invoice.id, amount: 1_500 });
    const over = await m.call('create', { invoice_id: invoice.id, amount: 2_501, reason: 'OTHER', out_of_band_amount: 2_501 });
    expect(over.body).toMatchObject({ code: 'CREDIT_NOTE_EXCEEDS_INVOICE', context: { creditable_amount: 2_500, post_payment_creditable: 2_500 } });
    const refundTooMuch = await m.call('create', { invoice_id: invoice.id, amount: 2_500, reason: 'OTHER', refund_amount: 2_500 });
    expect(refundTooMuch.status).toBe(200);
    expect(await m.call('create', { invoice_id: invoice.id, amount: 1, reason: 'OTHER', refund_amount: 1 })).toMatchObject({
      status: 422,
      body: { code: 'CREDIT_NOTE_EXCEEDS_INVOICE' },
    });
    expect((await invoiceRow(invoice.id)).amountRefunded).toBe(3_000 + 1_500 + 2_500);
  });

  it('refunds exactly what the payment has left, and refuses a refund part where no provider took the money', async () => {
    const { invoice } = await m.paidInvoice(10_000);
    await m.ok('invoices/refund', { id: invoice.id, amount: 9_000 });
    expect((await m.call('create', { invoice_id: invoice.id, amount: 1_000, reason: 'OTHER', refund_amount: 1_000 })).body.refund_amount).toBe(1_000);

    const elsewhere = await m.paidInvoice(3_000);
    // A payment no provider captured (as a record imported from elsewhere would be): nothing to refund through.
    await platform.db.payment.update({ where: { id: elsewhere.payment.id }, data: { provider: null } });
    const refused = await m.call('create', { invoice_id: elsewhere.invoice.id, amount: 1_000, reason: 'OTHER', refund_amount: 1_000 });
    expect({ status: refused.status, code: refused.body.code, context: refused.body.context }).toEqual({
      status: 422,
      code: 'REFUND_EXCEEDS_PAYMENT',
      context: { refund_amount: 1_000, refundable: 0 },
    });
    expect((await m.call('create', { invoice_id: elsewhere.invoice.id, amount: 1_000, reason: 'OTHER', out_of_band_amount: 1_000 })).status).toBe(200);
  });
});

describe('credit-notes/void', () => {
  it('undoes a balance credit not yet spent, and refuses once it is spent', async () => {
    const { customerId, invoice } = await m.paidInvoice(8_000);
    const note = await m.ok('credit-notes/create', { invoice_id: invoice.id, amount: 3_000, reason: 'OTHER', balance_credit_amount: 3_000 });
    expect(await balanceOf(customerId)).toBe(-3_000);
    const voided = await m.call('void', { id: note.id });
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ id: note.id, number: note.number, status: 'VOIDED', voided_at: expect.any(String) });
    expect(await balanceOf(customerId)).toBe(0);
    expect((await creditNoteEvents(platform, note.id)).map((e) => e.eventType)).toEqual(['CREDIT_NOTE_CREATED', 'CREDIT_NOTE_VOIDED']);
    expect((await m.call('void', { id: note.id })).body).toMatchObject({ code: 'INCOMPATIBLE_STATUS', context: { status: 'VOIDED' } });

    // Voided, it no longer counts: the whole payment can be credited again; then spend that credit.
    const again = await m.ok('credit-notes/create', { invoice_id: invoice.id, amount: 8_000, reason: 'OTHER', balance_credit_amount: 8_000 });
    await platform.db.$transaction((tx) =>
      appendBalanceTransaction(tx, { accountId: platform.accountId, customerId, currency: 'EUR', amount: 500, type: 'ADJUSTMENT', description: 'spent', now: new Date() }),
    );
    const spent = await m.call('void', { id: again.id });
    expect({ status: spent.status, code: spent.body.code, context: spent.body.context }).toEqual({
      status: 422,
      code: 'CREDIT_NOTE_NOT_VOIDABLE',
      context: { reason: 'BALANCE_SPENT', balance: -7_500, balance_credit_amount: 8_000 },
    });
    expect(await balanceOf(customerId)).toBe(-7_500);
  });

  it('never undoes a refund', async () => {
    const { invoice } = await m.paidInvoice(2_000);
    const note = await m.ok('credit-notes/create', { invoice_id: invoice.id, amount: 500, reason: 'OTHER', refund_amount: 500 });
    const refused = await m.call('void', { id: note.id });
    expect(refused.body).toMatchObject({ code: 'CREDIT_NOTE_NOT_VOIDABLE', context: { reason: 'REFUNDED', refund_id: note.refund_id } });
    expect((await platform.db.creditNote.findUniqueOrThrow({ where: { id: note.id } })).status).toBe('ISSUED');
  });

  it('raises amount_due back while the invoice is still owed, and refuses once it is settled', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId, { amount: 4_000 });
    const note = await m.ok('credit-notes/create', { invoice_id: invoice.id, amount: 1_000, reason: 'OTHER' });
    expect((await invoiceRow(invoice.id)).amountDue).toBe(3_000);
    await m.ok('credit-notes/void', { id: note.id });
    expect(await m.ok('invoices/get', { id: invoice.id })).toMatchObject({ status: 'OPEN', amount_due: 4_000 });

    const settling = await m.ok('credit-notes/create', { invoice_id: invoice.id, amount: 4_000, reason: 'OTHER' });
    const refused = await m.call('void', { id: settling.id });
    expect(refused.body).toMatchObject({ code: 'CREDIT_NOTE_NOT_VOIDABLE', context: { reason: 'INVOICE_SETTLED', invoice_status: 'PAID' } });
  });
});

describe('credit-notes/get and credit-notes/list', () => {
  it('lists newest first with the invoice, customer, status and created_at filters and 4.2 pagination', async () => {
    const { customerId, invoice } = await m.paidInvoice(9_000);
    const other = await m.openInvoice(customerId, { amount: 900 });
    const a = await m.ok('credit-notes/create', { invoice_id: invoice.id, amount: 100, reason: 'OTHER', out_of_band_amount: 100 });
    const b = await m.ok('credit-notes/create', { invoice_id: invoice.id, amount: 200, reason: 'OTHER', balance_credit_amount: 200 });
    const c = await m.ok('credit-notes/create', { invoice_id: other.id, amount: 300, reason: 'OTHER' });
    await m.ok('credit-notes/void', { id: b.id });

    const list = (body: unknown) => m.ok('credit-notes/list', body);
    const ids = (page: { items: Array<{ id: string }> }) => page.items.map((item) => item.id);
    expect(ids(await list({ filters: { customer_id: { operator: 'EQ', value: customerId } } }))).toEqual([c.id, b.id, a.id]);
    expect(ids(await list({ filters: { invoice_id: { operator: 'EQ', value: invoice.id } } }))).toEqual([b.id, a.id]);
    expect(ids(await list({ filters: { customer_id: { operator: 'EQ', value: customerId }, status: { operator: 'EQ', value: 'ISSUED' } } }))).toEqual([c.id, a.id]);
    expect(ids(await list({ filters: { customer_id: { operator: 'EQ', value: customerId }, created_at: { operator: 'RANGE', value: { from: b.created_at } } } }))).toEqual([c.id, b.id]);
    const first = await list({ filters: { customer_id: { operator: 'EQ', value: customerId } }, pagination: { page_size: 2 } });
    expect(ids(first)).toEqual([c.id, b.id]);
    const second = await list({ filters: { customer_id: { operator: 'EQ', value: customerId } }, pagination: { page_size: 2, next_page_token: first.pagination.next_page_token } });
    expect(second).toMatchObject({ items: [{ id: a.id }], pagination: { page_size: 2, next_page_token: '' } });

    const got = await m.ok('credit-notes/get', { id: b.id });
    expect({ ...got, pdf_url: undefined }).toEqual({ ...b, status: 'VOIDED', voided_at: expect.any(String), updated_at: expect.any(String), pdf_url: undefined });
    expect((await m.call('get', { id: 'cn_01jzzzzzzzzzzzzzzzzzzzzzzz' })).status).toBe(404);
    expect((await m.call('get', { id: b.id, channel_id: platform.channelIds[1] })).status).toBe(404);
  });
});

describe('idempotency', () => {
  it('issues one note (one refund, one number) for a create sent twice with one Idempotency-Key', async () => {
    const { invoice } = await m.paidInvoice(3_000);
    const body = { invoice_id: invoice.id, amount: 1_000, reason: 'DUPLICATE', refund_amount: 1_000 };
    const headers = { 'idempotency-key': `cn-${invoice.id}` };
    const [a, b] = await Promise.all([platform.call('/v2/credit-notes/create', body, { headers }), platform.call('/v2/credit-notes/create', body, { headers })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body).toEqual(b.body);
    expect([a.headers.get('idempotent-replayed'), b.headers.get('idempotent-replayed')]).toContain('true');
    expect(await platform.db.creditNote.count({ where: { invoiceId: invoice.id } })).toBe(1);
    expect(await platform.db.refund.count({ where: { invoiceId: invoice.id } })).toBe(1);
    const other = await platform.call('/v2/credit-notes/create', { ...body, amount: 500, refund_amount: 500 }, { headers });
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});
