import { invoiceCollectionWorkflowId } from '../../domain/workflow-ids';
import { createOperatorApiKey } from '../../scripts/operator/accounts';
import { usePlatform, type Platform } from '../support/platform';

const platform = usePlatform();

const call = (path: string, body: unknown, options?: Parameters<Platform['call']>[2]) => platform.call(`/v2/${path}`, body, options);

async function ok(path: string, body: unknown, options?: Parameters<Platform['call']>[2]) {
  const res = await call(path, body, options);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function customer(overrides: Record<string, unknown> = {}) {
  return ok('customers/create', {
    type: 'INDIVIDUAL',
    email: 'ada@example.com',
    first_name: 'Ada',
    address: { country: 'DEU', city: 'Berlin' },
    ...overrides,
  });
}

async function price(currency = 'EUR', amount = 1000) {
  const product = await ok('products/create', { name: 'Widget' });
  return ok('product-prices/create', { product_id: product.id, currency, amount, billing_type: 'ONE_TIME', tax_category_id: 'taxc_std' });
}

const adHoc = (amount: number, quantity = 1, tax?: unknown) => ({ amount, description: `Item ${amount}`, quantity, ...(tax ? { tax } : {}) });

async function draft(overrides: Record<string, unknown> = {}) {
  const cust = overrides.customer_id ? undefined : await customer();
  return ok('invoices/create', { customer_id: cust?.id, currency: 'EUR', line_items: [adHoc(1000)], ...overrides });
}

async function eventsFor(invoiceId: string, eventType?: string) {
  const rows = await platform.db.outboxEvent.findMany({ where: eventType ? { eventType } : {}, orderBy: { id: 'asc' } });
  return rows.filter((row) => (row.data as { invoice?: { id: string } }).invoice?.id === invoiceId);
}

async function setStatus(id: string, status: string) {
  await platform.db.invoice.update({ where: { id }, data: { status, customerSnapshot: { id: 'cust_x', email: 'x@example.com', tax: { taxability: 'TAXABLE' } } } });
}

describe('invoices/create', () => {
  it('creates a draft from prices and ad-hoc lines, with coupons and tax, and records InvoiceCreated', async () => {
    const cust = await customer();
    const p = await price('EUR', 333);
    const percent = await ok('coupons/create', { code: 'TEN', calculation_type: 'PERCENTAGE', calculation_value: 10 });
    await ok('coupons/create', { code: 'EUR101', calculation_type: 'AMOUNT', calculation_value: 101, currency: 'EUR' });
    const invoice = await ok('invoices/create', {
      customer_id: cust.id,
      currency: 'EUR',
      line_items: [
        { product_price_id: p.id, quantity: 3, tax: { mode: 'EXCLUSIVE', rate: 7.5 } },
        { amount: 1190, description: 'Support', quantity: 7, tax: { category_id: 'taxc_red', mode: 'INCLUSIVE', rate: 19 } },
        adHoc(1),
      ],
      discounts: [{ coupon_id: percent.id }, { coupon_code: 'EUR101' }],
      notes: 'Thanks',
      merchant_reference: 'PO-7',
      metadata: { order: '7' },
    });
    // The worked example of docs/invoices.md.
    expect(invoice).toEqual({
      id: expect.stringMatching(/^inv_/),
      channel_id: cust.channel_id,
      status: 'DRAFT',
      currency: 'EUR',
      total_amount: 8363,
      amount_due: 8363,
      amount_details: { subtotal: 9330, discount: 1034, taxable: 8296, tax: 1250, balance_applied: 0, balance_credited: 0 },
      line_items: [
        {
          id: expect.stringMatching(/^ili_/),
          product_price_id: p.id,
          description: 'Widget',
          amount: 333,
          currency: 'EUR',
          quantity: 3,
          amount_details: { subtotal: 999, discount: 111, taxable: 888, tax: 67 },
          tax: { category_id: 'taxc_std', mode: 'EXCLUSIVE', rate: 7.5 },
        },
        {
          id: expect.any(String),
          description: 'Support',
          amount: 1190,
          currency: 'EUR',
          quantity: 7,
          amount_details: { subtotal: 8330, discount: 923, taxable: 7407, tax: 1183 },
          tax: { category_id: 'taxc_red', mode: 'INCLUSIVE', rate: 19 },
        },
        { id: expect.any(String), description: 'Item 1', amount: 1, currency: 'EUR', quantity: 1, amount_details: { subtotal: 1, discount: 0, taxable: 1, tax: 0 } },
      ],
      customer: { id: cust.id, first_name: 'Ada', email: 'ada@example.com', address: { country: 'DEU', city: 'Berlin' }, tax: { taxability: 'TAXABLE' } },
      billing_reason: 'MANUAL',
      collection_method: 'SEND_INVOICE',
      discounts: [
        { coupon_id: percent.id, coupon_code: 'TEN', calculation_type: 'PERCENTAGE', calculation_value: 10 },
        { coupon_id: expect.any(String), coupon_code: 'EUR101', calculation_type: 'AMOUNT', calculation_value: 101 },
      ],
      notes: 'Thanks',
      merchant_reference: 'PO-7',
      metadata: { order: '7' },
      created_at: expect.stringMatching(/\.\d{6}Z$/),
      updated_at: invoice.created_at,
    });
    expect(await ok('invoices/get', { id: invoice.id })).toEqual(invoice);
    const events = await eventsFor(invoice.id);
    expect(events.map((e) => e.eventType)).toEqual(['INVOICE_CREATED']);
    expect(events[0]!.data).toEqual({ invoice });
  });

  it('validates line items, discounts and limits', async () => {
    const cust = await customer();
    const constraint = async (body: Record<string, unknown>, field: string) => {
      const res = await call('invoices/create', { customer_id: cust.id, currency: 'EUR', ...body });
      expect(res.status).toBe(400);
      return res.body.context.constraints[field];
    };
    const p = await price();
    expect(await constraint({ line_items: [{ product_price_id: p.id, amount: 1, quantity: 1 }] }, 'line_items[0].amount')).toMatchObject({ type: 'INVALID' });
    expect(await constraint({ line_items: [{ quantity: 1 }] }, 'line_items[0].product_price_id')).toMatchObject({ type: 'REQUIRED' });
    expect(await constraint({ line_items: [{ amount: 5, quantity: 1 }] }, 'line_items[0].description')).toMatchObject({ type: 'REQUIRED' });
    expect(await constraint({ line_items: [adHoc(5, 0)] }, 'line_items[0].quantity')).toMatchObject({ type: 'MIN' });
    expect(await constraint({ line_items: [adHoc(-5)] }, 'line_items[0].amount')).toMatchObject({ type: 'MIN' });
    expect(await constraint({ line_items: [adHoc(5, 1, { mode: 'EXCLUSIVE', rate: 7.12345 })] }, 'line_items[0].tax.rate')).toMatchObject({ type: 'FORMAT' });
    expect(await constraint({ line_items: [adHoc(5, 1, { mode: 'EXCLUSIVE', rate: 101 })] }, 'line_items[0].tax.rate')).toMatchObject({ type: 'MAX' });
    expect(await constraint({ line_items: [adHoc(5, 1, { mode: 'ON_TOP', rate: 1 })] }, 'line_items[0].tax.mode')).toMatchObject({ type: 'ENUM' });
    expect(await constraint({ line_items: Array.from({ length: 101 }, () => adHoc(1)) }, 'line_items')).toMatchObject({ type: 'MAX' });
    expect(await constraint({ line_items: Array.from({ length: 3 }, () => adHoc(999_999_999, 100_000)) }, 'line_items')).toMatchObject({ type: 'MAX' });
    expect(await constraint({ discounts: [{ coupon_id: p.id, coupon_code: 'X' }] }, 'discounts[0].coupon_id')).toMatchObject({ type: 'INVALID' });
    expect(await constraint({ collection_method: 'CASH' }, 'collection_method')).toMatchObject({ type: 'ENUM' });
    expect(await constraint({ billing_reason: 'MANUAL' }, 'billing_reason')).toMatchObject({ type: 'UNKNOWN_FIELD' });
    expect(await constraint({ currency: 'eur' }, 'currency')).toMatchObject({ type: 'ENUM' });
    const coupon = await ok('coupons/create', { code: 'TWICE', calculation_type: 'PERCENTAGE', calculation_value: 1 });
    expect(await constraint({ discounts: [{ coupon_id: coupon.id }, { coupon_code: 'TWICE' }] }, 'discounts[1]')).toMatchObject({ type: 'INVALID' });
    expect((await call('invoices/create', { customer_id: cust.id, currency: 'EUR', line_items: Array.from({ length: 100 }, () => adHoc(1, 3)) })).body.total_amount).toBe(300);
  });

  it.each([
    ['CUSTOMER_NOT_FOUND', async () => ({ customer_id: 'cust_nobody' })],
    ['CURRENCY_MISMATCH', async () => ({ line_items: [{ product_price_id: (await price('USD')).id, quantity: 1 }] })],
    ['PRODUCT_PRICE_NOT_FOUND', async () => ({ line_items: [{ product_price_id: '01890a5d-ac96-774b-bcce-b302099a8057', quantity: 1 }] })],
    ['COUPON_NOT_FOUND', async () => ({ discounts: [{ coupon_code: 'NOPE' }] })],
    [
      'COUPON_CURRENCY_MISMATCH',
      async () => {
        await ok('coupons/create', { code: `USD${Date.now()}`, calculation_type: 'AMOUNT', calculation_value: 5, currency: 'USD' });
        const [coupon] = (await ok('coupons/list', { filters: { calculation_type: { operator: 'EQ', value: 'AMOUNT' } } })).items.filter(
          (c: { currency: string }) => c.currency === 'USD',
        );
        return { discounts: [{ coupon_id: coupon.id }] };
      },
    ],
    ['PAYMENT_INSTRUMENT_NOT_FOUND', async () => ({ payment_instrument_id: 'pi_other' })],
  ])('refuses with 422 %s and writes nothing', async (code, body) => {
    const cust = await customer();
    const before = await platform.db.invoice.count();
    const res = await call('invoices/create', { customer_id: cust.id, currency: 'EUR', line_items: [adHoc(5)], ...(await body()) });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(code);
    expect(await platform.db.invoice.count()).toBe(before);
  });
});

describe('invoices/update', () => {
  it('changes only the fields sent, clears with null, recomputes amounts and records InvoiceUpdated', async () => {
    const invoice = await draft({ notes: 'n', merchant_reference: 'r', due_at: '2099-01-01T00:00:00.000000Z', line_items: [adHoc(999, 3)] });
    const coupon = await ok('coupons/create', { code: 'THIRD', calculation_type: 'PERCENTAGE', calculation_value: 33.3333 });
    const updated = await ok('invoices/update', { id: invoice.id, discounts: [{ coupon_id: coupon.id }], notes: null });
    expect(updated.line_items[0].id).toBe(invoice.line_items[0].id);
    // 2997 × 33.3333 % = 998.999… → 999.
    expect(updated.amount_details).toEqual({ subtotal: 2997, discount: 999, taxable: 1998, tax: 0, balance_applied: 0, balance_credited: 0 });
    expect(updated.total_amount).toBe(1998);
    expect(updated.notes).toBeUndefined();
    expect(updated.merchant_reference).toBe('r');
    expect(updated.due_at).toBe('2099-01-01T00:00:00.000000Z');

    const relined = await ok('invoices/update', { id: invoice.id, line_items: [adHoc(10, 1, { mode: 'EXCLUSIVE', rate: 5 })], due_at: null });
    expect(relined.line_items).toHaveLength(1);
    expect(relined.line_items[0].id).not.toBe(invoice.line_items[0].id);
    expect(relined.line_items[0].amount_details).toEqual({ subtotal: 10, discount: 3, taxable: 7, tax: 0 });
    expect(relined.due_at).toBeUndefined();
    expect(await ok('invoices/get', { id: invoice.id })).toEqual(relined);
    expect((await eventsFor(invoice.id)).map((e) => e.eventType)).toEqual(['INVOICE_CREATED', 'INVOICE_UPDATED', 'INVOICE_UPDATED']);

    const unchanged = await ok('invoices/update', { id: invoice.id, merchant_reference: 'r' });
    expect(unchanged).toEqual(relined);
    expect(await eventsFor(invoice.id, 'INVOICE_UPDATED')).toHaveLength(2);
  });

  it('is 404 for an unknown invoice', async () => {
    expect((await call('invoices/update', { id: 'inv_nothing', notes: 'x' })).status).toBe(404);
  });
});

describe('invoices/finalize', () => {
  it('moves DRAFT to OPEN and freezes the customer snapshot', async () => {
    const cust = await customer({ phone: '+4930123456' });
    const invoice = await draft({ customer_id: cust.id, line_items: [adHoc(1000, 1, { mode: 'EXCLUSIVE', rate: 19 })] });
    const finalized = await ok('invoices/finalize', { id: invoice.id });
    expect(finalized).toMatchObject({ status: 'OPEN', total_amount: 1190, amount_due: 1190, finalized_at: expect.any(String) });
    await ok('customers/update', { id: cust.id, first_name: 'Augusta', address: { country: 'FRA' }, email: 'new@example.com' });
    const got = await ok('invoices/get', { id: invoice.id });
    expect(got.customer).toEqual({
      id: cust.id,
      first_name: 'Ada',
      email: 'ada@example.com',
      phone: '+4930123456',
      address: { country: 'DEU', city: 'Berlin' },
      tax: { taxability: 'TAXABLE' },
    });
    const finalizedEvents = await eventsFor(invoice.id, 'INVOICE_FINALIZED');
    expect(finalizedEvents).toHaveLength(1);
    expect((finalizedEvents[0]!.data as { invoice: unknown }).invoice).toEqual(finalized);
  });

  it('marks a zero-total invoice PAID at once and records InvoiceFinalized and InvoicePaid', async () => {
    const coupon = await ok('coupons/create', { code: 'ALLFREE', calculation_type: 'PERCENTAGE', calculation_value: 100 });
    const invoice = await draft({ discounts: [{ coupon_id: coupon.id }], collection_method: 'CHARGE_AUTOMATICALLY' });
    const finalized = await ok('invoices/finalize', { id: invoice.id });
    expect(finalized).toMatchObject({ status: 'PAID', total_amount: 0, amount_due: 0, paid_at: expect.any(String) });
    expect((await eventsFor(invoice.id)).map((e) => e.eventType)).toEqual(['INVOICE_CREATED', 'INVOICE_FINALIZED', 'INVOICE_PAID']);
    await expect(platform.env.client.workflow.getHandle(invoiceCollectionWorkflowId(invoice.id)).describe()).rejects.toThrow();
  });

  it('starts the collection workflow for CHARGE_AUTOMATICALLY, on the customer’s default instrument', async () => {
    const cust = await customer();
    const card = await ok('payment-instruments/tokenize', { customer_id: cust.id, card: { number: '4242424242424242', exp_month: 12, exp_year: 2040 } });
    await ok('customers/update', { id: cust.id, configuration: { default_payment_instrument_id: card.id } });
    const invoice = await draft({ customer_id: cust.id, collection_method: 'CHARGE_AUTOMATICALLY' });
    const finalized = await ok('invoices/finalize', { id: invoice.id });
    expect(finalized.payment_instrument_id).toBe(card.id);
    const description = await platform.env.client.workflow.getHandle(invoiceCollectionWorkflowId(invoice.id)).describe();
    expect(description.type).toBe('invoiceCollectionWorkflow');
    expect(description.workflowId).toBe(`${invoice.id}/collection`);
  });

  it('does not start a workflow for SEND_INVOICE', async () => {
    const invoice = await draft();
    await ok('invoices/finalize', { id: invoice.id });
    await expect(platform.env.client.workflow.getHandle(invoiceCollectionWorkflowId(invoice.id)).describe()).rejects.toThrow();
  });

  it('fails with 422 FINALIZATION_FAILED listing every reason, commits InvoiceFinalizationFailed and leaves the DRAFT', async () => {
    const cust = await customer({ address: { city: 'Nowhere' } });
    const card = await ok('payment-instruments/tokenize', { customer_id: cust.id, card: { number: '4242424242424242', exp_month: 12, exp_year: 2040 } });
    await ok('payment-instruments/revoke', { id: card.id });
    const invoice = await draft({
      customer_id: cust.id,
      line_items: [adHoc(100, 1, { mode: 'EXCLUSIVE', rate: 7.5 })],
      collection_method: 'CHARGE_AUTOMATICALLY',
      payment_instrument_id: card.id,
      due_at: '2001-01-01T00:00:00.000000Z',
    });
    const res = await call('invoices/finalize', { id: invoice.id });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('FINALIZATION_FAILED');
    expect(res.body.context.reasons.map((r: { code: string }) => r.code)).toEqual([
      'CUSTOMER_ADDRESS_COUNTRY_REQUIRED',
      'PAYMENT_INSTRUMENT_NOT_ACTIVE',
      'DUE_AT_IN_THE_PAST',
    ]);
    const got = await ok('invoices/get', { id: invoice.id });
    expect(got).toEqual(invoice);
    const failed = await eventsFor(invoice.id, 'INVOICE_FINALIZATION_FAILED');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.data).toEqual({ invoice, reasons: res.body.context.reasons });
    expect(await eventsFor(invoice.id, 'INVOICE_FINALIZED')).toHaveLength(0);
  });

  it('fails an empty invoice, and one with nothing to charge automatically', async () => {
    const empty = await draft({ line_items: [] });
    const res = await call('invoices/finalize', { id: empty.id });
    expect(res.body.context.reasons.map((r: { code: string }) => r.code)).toEqual(['NO_LINE_ITEMS']);
    const noCard = await draft({ collection_method: 'CHARGE_AUTOMATICALLY' });
    const refused = await call('invoices/finalize', { id: noCard.id });
    expect(refused.body.context.reasons.map((r: { code: string }) => r.code)).toEqual(['PAYMENT_INSTRUMENT_REQUIRED']);
  });

  it('records one failure event per failed request, however it is retried under its Idempotency-Key', async () => {
    const invoice = await draft({ line_items: [] });
    const headers = { 'Idempotency-Key': `fin-${invoice.id}` };
    const first = await call('invoices/finalize', { id: invoice.id }, { headers });
    const again = await call('invoices/finalize', { id: invoice.id }, { headers });
    expect(again.status).toBe(422);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await eventsFor(invoice.id, 'INVOICE_FINALIZATION_FAILED')).toHaveLength(1);

    const racing = await draft({ line_items: [] });
    const raceHeaders = { 'Idempotency-Key': `fin-${racing.id}` };
    const answers = await Promise.all(Array.from({ length: 4 }, () => call('invoices/finalize', { id: racing.id }, { headers: raceHeaders })));
    expect(answers.map((a) => a.body.code)).toEqual(Array(4).fill('FINALIZATION_FAILED'));
    expect(await eventsFor(racing.id, 'INVOICE_FINALIZATION_FAILED')).toHaveLength(1);

    await call('invoices/finalize', { id: racing.id });
    expect(await eventsFor(racing.id, 'INVOICE_FINALIZATION_FAILED')).toHaveLength(2);
  });
});

describe('invoices/void', () => {
  it.each(['OPEN', 'DUNNING', 'UNPAID'])('voids a %s invoice and records InvoiceVoided', async (status) => {
    const invoice = await draft();
    await ok('invoices/finalize', { id: invoice.id });
    await platform.db.invoice.update({ where: { id: invoice.id }, data: { status } });
    const voided = await ok('invoices/void', { id: invoice.id });
    expect(voided).toMatchObject({ status: 'VOIDED', amount_due: 0, total_amount: 1000, voided_at: expect.any(String) });
    const events = await eventsFor(invoice.id, 'INVOICE_VOIDED');
    expect(events.map((e) => e.data)).toEqual([{ invoice: voided }]);
  });

  it('refuses while a payment is under way, so a charge never lands on a void invoice', async () => {
    const invoice = await draft();
    await ok('invoices/finalize', { id: invoice.id });
    await platform.db.invoice.update({ where: { id: invoice.id }, data: { paymentInProgressId: `${invoice.id}/collection/1` } });
    const res = await call('invoices/void', { id: invoice.id });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'INCOMPATIBLE_STATUS', context: { status: 'OPEN', payment_in_progress: true } });
    expect((await platform.db.invoice.findUniqueOrThrow({ where: { id: invoice.id } })).status).toBe('OPEN');
  });

  it('signals the collection workflow, so a dunning run ends at once', async () => {
    const cust = await customer();
    const card = await ok('payment-instruments/tokenize', { customer_id: cust.id, card: { number: '4000000000009995', exp_month: 12, exp_year: 2040 } });
    const invoice = await draft({ customer_id: cust.id, collection_method: 'CHARGE_AUTOMATICALLY', payment_instrument_id: card.id });
    await ok('invoices/finalize', { id: invoice.id });
    const handle = platform.env.client.workflow.getHandle(invoiceCollectionWorkflowId(invoice.id));
    // The soft decline puts the invoice into dunning, waiting for its first retry.
    for (let i = 0; (await platform.db.invoice.findUniqueOrThrow({ where: { id: invoice.id } })).status !== 'DUNNING'; i += 1) {
      if (i > 200) throw new Error('The invoice never reached DUNNING.');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await ok('invoices/void', { id: invoice.id });
    const signalled = async () =>
      ((await handle.fetchHistory()).events ?? []).some((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'invoiceStatusChanged');
    for (let i = 0; !(await signalled()); i += 1) {
      if (i > 200) throw new Error('No invoiceStatusChanged signal reached the workflow.');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Ended by the signal after the one failed attempt, not by a retry finding the invoice voided.
    expect(await handle.result()).toEqual({ status: 'VOIDED', attempts: 1 });
  });
});

describe('status refusals', () => {
  const REFUSED: Array<[string, string[]]> = [
    ['update', ['OPEN', 'PAID', 'VOIDED', 'DUNNING', 'UNPAID']],
    ['finalize', ['OPEN', 'PAID', 'VOIDED', 'DUNNING', 'UNPAID']],
    ['delete', ['OPEN', 'PAID', 'VOIDED', 'DUNNING', 'UNPAID']],
    ['void', ['DRAFT', 'PAID', 'VOIDED']],
  ];
  it.each(REFUSED.flatMap(([op, statuses]) => statuses.map((status) => [op, status] as const)))(
    'invoices/%s refuses a %s invoice with 422 INCOMPATIBLE_STATUS and changes nothing',
    async (op, status) => {
      const invoice = await draft();
      if (status !== 'DRAFT') await setStatus(invoice.id, status);
      const before = await platform.db.invoice.findUniqueOrThrow({ where: { id: invoice.id } });
      const eventsBefore = (await eventsFor(invoice.id)).length;
      const res = await call(`invoices/${op}`, { id: invoice.id, ...(op === 'update' ? { notes: 'x' } : {}) });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'INCOMPATIBLE_STATUS', context: { status } });
      expect(await platform.db.invoice.findUniqueOrThrow({ where: { id: invoice.id } })).toEqual(before);
      expect(await eventsFor(invoice.id)).toHaveLength(eventsBefore);
    },
  );
});

describe('invoices/delete', () => {
  it('soft-deletes a draft: 404 afterwards, gone from lists, InvoiceDeleted with the section 6.2 payload', async () => {
    const coupon = await ok('coupons/create', { code: 'DEL5', calculation_type: 'PERCENTAGE', calculation_value: 5 });
    const invoice = await draft({ discounts: [{ coupon_code: 'DEL5' }], merchant_reference: 'to-delete' });
    expect(await ok('invoices/delete', { id: invoice.id })).toEqual({ id: invoice.id, deleted: true });
    expect((await call('invoices/get', { id: invoice.id })).status).toBe(404);
    expect((await call('invoices/delete', { id: invoice.id })).status).toBe(404);
    expect((await call('invoices/update', { id: invoice.id, notes: 'x' })).status).toBe(404);
    const listed = await ok('invoices/list', { filters: { customer_id: { operator: 'EQ', value: invoice.customer.id } } });
    expect(listed.items).toEqual([]);
    const [event] = await eventsFor(invoice.id, 'INVOICE_DELETED');
    const payload = (event!.data as { invoice: Record<string, unknown> }).invoice;
    expect(payload).not.toHaveProperty('amount_due');
    expect(payload).not.toHaveProperty('amount_details');
    expect(payload.discounts).toEqual([{ coupon_id: coupon.id, coupon_code: 'DEL5', calculation_type: 'PERCENTAGE', calculation_value: 5 }]);
    expect(payload).toMatchObject({ id: invoice.id, status: 'DRAFT', total_amount: 950, merchant_reference: 'to-delete' });
    expect(await platform.db.invoice.findUniqueOrThrow({ where: { id: invoice.id } })).toMatchObject({ deletedAt: expect.any(Date) });
  });
});

describe('invoices/list', () => {
  it('filters by status, customer, currency, created_at and due_at, newest first, in pages', async () => {
    const cust = await customer();
    const a = await draft({ customer_id: cust.id, due_at: '2090-01-01T00:00:00.000000Z' });
    const b = await draft({ customer_id: cust.id, currency: 'USD', due_at: '2091-01-01T00:00:00.000000Z' });
    const c = await draft({ customer_id: cust.id });
    await ok('invoices/finalize', { id: c.id });
    const list = (filters: unknown, pagination?: unknown) => ok('invoices/list', { filters, ...(pagination ? { pagination } : {}) });
    const byCustomer = { customer_id: { operator: 'EQ', value: cust.id } };
    const ids = (page: { items: { id: string }[] }) => page.items.map((i) => i.id);
    expect(ids(await list(byCustomer))).toEqual([c.id, b.id, a.id]);
    expect(ids(await list({ ...byCustomer, status: { operator: 'EQ', value: 'OPEN' } }))).toEqual([c.id]);
    expect(ids(await list({ ...byCustomer, status: { operator: 'IN', value: ['DRAFT', 'PAID'] } }))).toEqual([b.id, a.id]);
    expect(ids(await list({ ...byCustomer, currency: { operator: 'EQ', value: 'USD' } }))).toEqual([b.id]);
    expect(ids(await list({ ...byCustomer, due_at: { operator: 'RANGE', value: { from: '2090-06-01T00:00:00Z' } } }))).toEqual([b.id]);
    expect(ids(await list({ ...byCustomer, created_at: { operator: 'RANGE', value: { from: b.created_at } } }))).toEqual([c.id, b.id]);
    expect(ids(await list({ subscription_id: { operator: 'EQ', value: 'subs_none' } }))).toEqual([]);
    const first = await list(byCustomer, { page_size: 2 });
    expect(ids(first)).toEqual([c.id, b.id]);
    const second = await list(byCustomer, { page_size: 2, next_page_token: first.pagination.next_page_token });
    expect(ids(second)).toEqual([a.id]);
    expect(second.pagination.next_page_token).toBe('');
    const statusFilter = await call('invoices/list', { filters: { status: { operator: 'NEQ', value: 'OPEN' } } });
    expect(statusFilter.body.context.constraints['filters.status.operator']).toMatchObject({ type: 'ENUM' });
    const drafts = (await list(byCustomer)).items.filter((i: { status: string }) => i.status === 'DRAFT');
    expect(drafts[0]).toEqual(await ok('invoices/get', { id: drafts[0].id }));
  });
});

describe('channel scoping', () => {
  it('keeps an invoice in its customer’s channel', async () => {
    const [one, two] = platform.channelIds;
    const cust = await customer({ channel_id: two });
    const invoice = await draft({ customer_id: cust.id });
    expect(invoice.channel_id).toBe(two);
    const bound = (await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'one', channelIds: [one] })).secret;
    expect((await call('invoices/get', { id: invoice.id }, { secret: bound })).status).toBe(404);
    expect((await call('invoices/finalize', { id: invoice.id }, { secret: bound })).status).toBe(404);
    expect((await ok('invoices/list', {}, { secret: bound })).items.map((i: { id: string }) => i.id)).not.toContain(invoice.id);
    const created = await call('invoices/create', { customer_id: cust.id, currency: 'EUR' }, { secret: bound });
    expect(created.status).toBe(422);
    expect(created.body.code).toBe('CUSTOMER_NOT_FOUND');
    expect((await call('invoices/get', { id: invoice.id, channel_id: one })).status).toBe(404);
    expect((await call('invoices/get', { id: invoice.id, channel_id: two })).status).toBe(200);
  });
});
