import Papa from 'papaparse';
import { reportCsv, reportPages, type ReportScope } from '../../activities/report-export';
import { storedFileUrl } from '../../api/files/stored-file-url';
import { FREE_TEXT_COLUMNS, SUBSCRIPTION_REPORT_COLUMNS, type Cell } from '../../domain/report-columns';
import { newId } from '../../domain/ids';
import { createOperatorApiKey } from '../../scripts/operator/accounts';
import { usePlatform } from '../support/platform';
import { insertSubscription, reports, setCreatedAt } from './fixtures';

const platform = usePlatform();
let r: ReturnType<typeof reports>;

const FROM = '2026-01-01T00:00:00.000000Z';
const TO = '2026-02-01T00:00:00.000000Z';

// Written out from section 2.8, not imported: the test is the second reading of the spec.
const INVOICE_HEADER =
  'id,status,currency,total_amount,notes,merchant_reference,pdf_url,created_at,updated_at,due_at,customer_id,' +
  'customer_first_name,customer_last_name,customer_email,customer_phone,customer_address_city,customer_address_country,' +
  'customer_address_line1,customer_address_line2,customer_address_state,customer_address_postal_code,customer_tax_taxability,' +
  'amount_details_subtotal,amount_details_discount,amount_details_taxable,amount_details_tax,discounts,' +
  'line_item_product_price_id,line_item_description,line_item_amount,line_item_currency,line_item_quantity,' +
  'line_item_amount_details_subtotal,line_item_amount_details_discount,line_item_amount_details_taxable,' +
  'line_item_amount_details_tax,line_item_tax_category_id,line_item_tax_mode,line_item_tax_rate';

const SUBSCRIPTION_HEADER =
  'id,customer_id,status,currency,description,payment_instrument_id,latest_invoice_id,merchant_reference,created_at,' +
  'updated_at,started_at,next_billing_at,anchor_at,trial_info_type,trial_info_amount,trial_info_period_start_at,' +
  'trial_info_period_end_at,trial_info_period_config_value,trial_info_period_config_unit,cancellation_info_cancel_at,' +
  'cancellation_info_requested_at,cancellation_info_reason,cancellation_info_comment,discounts,metadata,line_item_id,' +
  'line_item_product_id,line_item_product_price_id,line_item_billing_type,line_item_currency,line_item_amount,' +
  'line_item_quantity,line_item_started_at,line_item_period_start_at,line_item_period_end_at,' +
  'line_item_billing_period_config_value,line_item_billing_period_config_unit,line_item_product_info_name,' +
  'line_item_product_info_description,line_item_created_at,line_item_updated_at';

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/** The rows an invoice should give, from the invoice as invoices/get serves it; pdf_url is checked on its own. */
function expectedInvoiceRows(invoice: any, createdAt = invoice.created_at): Record<string, string>[] {
  const customer = invoice.customer;
  const address = customer.address ?? {};
  return invoice.line_items.map((line: any) => ({
    id: invoice.id,
    status: invoice.status,
    currency: invoice.currency,
    total_amount: text(invoice.total_amount),
    notes: text(invoice.notes),
    merchant_reference: text(invoice.merchant_reference),
    created_at: createdAt,
    updated_at: invoice.updated_at,
    due_at: text(invoice.due_at),
    customer_id: customer.id,
    customer_first_name: text(customer.first_name),
    customer_last_name: text(customer.last_name),
    customer_email: text(customer.email),
    customer_phone: text(customer.phone),
    customer_address_city: text(address.city),
    customer_address_country: text(address.country),
    customer_address_line1: text(address.line1),
    customer_address_line2: text(address.line2),
    customer_address_state: text(address.state),
    customer_address_postal_code: text(address.postal_code),
    customer_tax_taxability: customer.tax.taxability,
    amount_details_subtotal: text(invoice.amount_details.subtotal),
    amount_details_discount: text(invoice.amount_details.discount),
    amount_details_taxable: text(invoice.amount_details.taxable),
    amount_details_tax: text(invoice.amount_details.tax),
    discounts: JSON.stringify(invoice.discounts.map((d: any) => ({ coupon_id: d.coupon_id, coupon_code: d.coupon_code }))),
    line_item_product_price_id: text(line.product_price_id),
    line_item_description: text(line.description),
    line_item_amount: text(line.amount),
    line_item_currency: line.currency,
    line_item_quantity: text(line.quantity),
    line_item_amount_details_subtotal: text(line.amount_details.subtotal),
    line_item_amount_details_discount: text(line.amount_details.discount),
    line_item_amount_details_taxable: text(line.amount_details.taxable),
    line_item_amount_details_tax: text(line.amount_details.tax),
    line_item_tax_category_id: text(line.tax?.category_id),
    line_item_tax_mode: text(line.tax?.mode),
    line_item_tax_rate: text(line.tax?.rate),
  }));
}

function withoutPdfUrl(rows: Record<string, string>[]) {
  return rows.map(({ pdf_url: _pdfUrl, ...rest }) => rest);
}

interface World {
  customerA: string;
  customerB: string;
  /** Finalized, three lines, in channel one; created at a moment with microseconds. */
  open: any;
  draft: any;
  deletedId: string;
  /** Channel two. */
  other: any;
  atFrom: any;
  atTo: string;
  justBefore: string;
}

let world: World;

async function buildWorld(): Promise<World> {
  const [one, two] = platform.channelIds;
  const customerA = (
    await r.ok('customers/create', {
      type: 'INDIVIDUAL',
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '+442071234567',
      address: { line1: '12 St James Sq', line2: 'Flat 3', city: 'London', postal_code: 'SW1Y 4JH', country: 'GBR' },
      channel_id: one,
    })
  ).id;
  const customerB = (await r.ok('customers/create', { type: 'INDIVIDUAL', email: 'bob@example.com', channel_id: two })).id;
  const product = await r.ok('products/create', { name: 'Widget' });
  const price = await r.ok('product-prices/create', { product_id: product.id, currency: 'EUR', amount: 333, billing_type: 'ONE_TIME', tax_category_id: 'taxc_std' });
  const coupon = await r.ok('coupons/create', { code: 'TEN', calculation_type: 'PERCENTAGE', calculation_value: 10 });

  const draftOf = (customerId: string, body: Record<string, unknown> = {}) =>
    r.ok('invoices/create', { customer_id: customerId, currency: 'EUR', line_items: [{ amount: 500, description: 'Thing', quantity: 1 }], ...body });

  const openDraft = await draftOf(customerA, {
    line_items: [
      { product_price_id: price.id, quantity: 3, tax: { mode: 'EXCLUSIVE', rate: 7.5 } },
      { amount: 1190, description: 'Support, "premium"\nsecond line', quantity: 7, tax: { category_id: 'taxc_red', mode: 'INCLUSIVE', rate: 19 } },
      { amount: 1, description: 'Penny', quantity: 1 },
    ],
    discounts: [{ coupon_id: coupon.id }],
    notes: 'Thanks, "friend"',
    merchant_reference: 'PO-7',
    collection_method: 'SEND_INVOICE',
    due_at: '2030-02-15T00:00:00.000000Z',
  });
  await r.ok('invoices/finalize', { id: openDraft.id });
  // After finalization: the frozen snapshot keeps the old e-mail, the draft shows the new one.
  await r.ok('customers/patch', { id: customerA, email: 'ada@new.example.com' });
  const draft = await draftOf(customerA, { line_items: [{ amount: 200, description: 'A', quantity: 2 }, { amount: 300, description: 'B', quantity: 1 }] });
  const deleted = await draftOf(customerA);
  await r.ok('invoices/delete', { id: deleted.id });
  const other = await draftOf(customerB, { collection_method: 'SEND_INVOICE', due_at: '2030-03-01T00:00:00.000000Z' });
  await r.ok('invoices/finalize', { id: other.id });
  const atFrom = await draftOf(customerB);
  const atTo = await draftOf(customerA);
  const justBefore = await draftOf(customerA);

  await setCreatedAt(platform, 'invoices', openDraft.id, '2026-01-10T09:00:00.123456Z');
  await setCreatedAt(platform, 'invoices', draft.id, '2026-01-11T00:00:00Z');
  await setCreatedAt(platform, 'invoices', deleted.id, '2026-01-12T00:00:00Z');
  await setCreatedAt(platform, 'invoices', other.id, '2026-01-13T00:00:00Z');
  await setCreatedAt(platform, 'invoices', atFrom.id, FROM);
  await setCreatedAt(platform, 'invoices', atTo.id, TO);
  await setCreatedAt(platform, 'invoices', justBefore.id, '2025-12-31T23:59:59.999999Z');

  const get = (id: string) => r.ok('invoices/get', { id });
  return {
    customerA,
    customerB,
    open: await get(openDraft.id),
    draft: await get(draft.id),
    deletedId: deleted.id,
    other: await get(other.id),
    atFrom: await get(atFrom.id),
    atTo: atTo.id,
    justBefore: justBefore.id,
  };
}

beforeAll(async () => {
  r = reports(platform);
  world = await buildWorld();
});

function keyWith(permissions: string[], channelIds: string[] = []) {
  return createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'scoped', channelIds, permissions: permissions as any });
}

describe('INVOICES report', () => {
  it('has the section 2.8 header and one row per line item, parsed back equal to the invoices', async () => {
    const { report, text, rows, errors, response } = await r.csvOf({ report_type: 'INVOICES', date_from: FROM, date_to: TO });
    expect(errors).toEqual([]);
    expect(text.split('\r\n')[0]).toBe(INVOICE_HEADER);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="invoices-${report.id}.csv"`);

    // Creation order: at date_from, the finalized one, the draft, channel two's. Not the deleted
    // one, not the one at date_to, not the one a microsecond before date_from.
    expect(withoutPdfUrl(rows)).toEqual(
      withoutPdfUrl([
        ...expectedInvoiceRows(world.atFrom),
        ...expectedInvoiceRows(world.open, '2026-01-10T09:00:00.123456Z'),
        ...expectedInvoiceRows(world.draft),
        ...expectedInvoiceRows(world.other),
      ]),
    );
    const ids = rows.map((row) => row.id);
    expect(ids).not.toContain(world.deletedId);
    expect(ids).not.toContain(world.atTo);
    expect(ids).not.toContain(world.justBefore);

    const done = await r.waitForStatus(report.id, 'SUCCEEDED');
    expect(done.rowCount).toBe(rows.length);
    expect(Number(done.byteSize)).toBe(Buffer.byteLength(text));
  });

  it('writes what the spec asks of individual cells: frozen snapshot, live draft customer, JSON, empty for absent', async () => {
    const { rows } = await r.csvOf({ report_type: 'INVOICES', date_from: FROM, date_to: TO });
    const open = rows.filter((row) => row.id === world.open.id);
    expect(open.map((row) => row.customer_email)).toEqual(['ada@example.com', 'ada@example.com', 'ada@example.com']);
    expect(open[0]).toMatchObject({
      status: 'OPEN',
      notes: 'Thanks, "friend"',
      due_at: '2030-02-15T00:00:00.000000Z',
      customer_address_city: 'London',
      customer_address_state: '',
      line_item_tax_mode: 'EXCLUSIVE',
      line_item_tax_rate: '7.5',
      line_item_tax_category_id: 'taxc_std',
    });
    expect(JSON.parse(open[0]!.discounts!)).toEqual([{ coupon_id: expect.any(String), coupon_code: 'TEN' }]);
    expect(open[1]).toMatchObject({ line_item_description: 'Support, "premium"\nsecond line', line_item_tax_rate: '19', line_item_tax_mode: 'INCLUSIVE' });
    expect(open[2]).toMatchObject({ line_item_tax_mode: '', line_item_tax_rate: '', line_item_tax_category_id: '' });

    const draft = rows.filter((row) => row.id === world.draft.id);
    expect(draft.map((row) => [row.status, row.customer_email, row.pdf_url, row.due_at])).toEqual([
      ['DRAFT', 'ada@new.example.com', '', ''],
      ['DRAFT', 'ada@new.example.com', '', ''],
    ]);
    expect(rows.find((row) => row.id === world.other.id)).toMatchObject({ customer_first_name: '', customer_address_country: '', discounts: '[]' });
  });

  it('links each issued invoice’s PDF for as long as the report lives', async () => {
    const { report, rows } = await r.csvOf({ report_type: 'INVOICES', date_from: FROM, date_to: TO });
    const link = new URL(rows.find((row) => row.id === world.open.id)!.pdf_url!);
    expect(link.pathname).toBe(`/files/invoices/${world.open.id}.pdf`);
    expect(Math.abs(Number(link.searchParams.get('expires')) - Date.parse(report.expires_at) / 1000)).toBeLessThanOrEqual(2);
    const pdf = await fetch(link);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  });

  it('holds only the channel a channel-bound key reaches, or the channel named', async () => {
    const [one, two] = platform.channelIds;
    const key = await keyWith(['reports:create', 'reports:download', 'reports:list', 'invoices:list'], [one]);
    const bound = await r.csvOf({ report_type: 'INVOICES', date_from: FROM, date_to: TO }, key.secret);
    expect(bound.report.channel_ids).toEqual([one]);
    expect([...new Set(bound.rows.map((row) => row.id))]).toEqual([world.open.id, world.draft.id]);

    const named = await r.csvOf({ report_type: 'INVOICES', date_from: FROM, date_to: TO, channel_id: two });
    expect([...new Set(named.rows.map((row) => row.id))]).toEqual([world.atFrom.id, world.other.id]);

    const refused = await platform.call('/v2/reports/create', { report_type: 'INVOICES', date_from: FROM, date_to: TO, channel_id: two }, { secret: key.secret });
    expect(refused.status).toBe(403);

    // An account-wide report holds every channel: not the bound key's to see.
    const wide = await r.ok('reports/create', { report_type: 'INVOICES', date_from: FROM, date_to: TO });
    await r.waitForStatus(wide.id, 'SUCCEEDED');
    expect((await r.download(wide.id, key.secret)).status).toBe(404);
    const listed = await r.ok('reports/list', { pagination: { page_size: 100 } }, key.secret);
    expect(listed.items.map((item: any) => item.id)).toEqual([bound.report.id]);
  });

  it('covers every channel of a key bound to several when it names none, and lists for such a key only the reports it fully sees', async () => {
    const [one, two, three] = platform.channelIds;
    const elsewhere = (await r.ok('customers/create', { type: 'INDIVIDUAL', email: 'cy@example.com', channel_id: three })).id;
    const third = await r.ok('invoices/create', { customer_id: elsewhere, currency: 'EUR', line_items: [{ amount: 700, description: 'Elsewhere', quantity: 1 }] });
    await setCreatedAt(platform, 'invoices', third.id, '2026-03-01T00:00:00Z');
    const until = '2026-04-01T00:00:00.000000Z';
    const permissions = ['reports:create', 'reports:download', 'reports:list', 'invoices:list'];
    const both = await keyWith(permissions, [one, two]);

    const covering = await r.csvOf({ report_type: 'INVOICES', date_from: FROM, date_to: until }, both.secret);
    expect([...covering.report.channel_ids].sort()).toEqual([one, two].sort());
    expect([...new Set(covering.rows.map((row) => row.id))].sort()).toEqual([world.open.id, world.draft.id, world.other.id, world.atFrom.id, world.atTo].sort());
    const everything = await r.csvOf({ report_type: 'INVOICES', date_from: FROM, date_to: until });
    expect(everything.rows.map((row) => row.id)).toContain(third.id);

    const onlyOne = await keyWith(permissions, [one]);
    const ofOne = await r.ok('reports/create', { report_type: 'INVOICES', date_from: FROM, date_to: TO }, onlyOne.secret);
    const ofThree = await r.ok('reports/create', { report_type: 'INVOICES', date_from: FROM, date_to: TO, channel_id: three });
    const ids = async (secret: string, body: Record<string, unknown> = {}) =>
      (await r.ok('reports/list', { ...body, pagination: { page_size: 100 } }, secret)).items.map((item: any) => item.id);
    const seenByBoth = await ids(both.secret);
    expect(seenByBoth).toEqual(expect.arrayContaining([covering.report.id, ofOne.id]));
    expect(seenByBoth).not.toContain(everything.report.id);
    expect(seenByBoth).not.toContain(ofThree.id);
    expect(await ids(both.secret, { channel_id: two })).toEqual(expect.arrayContaining([covering.report.id]));
    expect(await ids(both.secret, { channel_id: two })).not.toContain(ofOne.id);
    // The report of both channels holds channel two's records: not for a key that reaches only channel one.
    expect(await ids(onlyOne.secret)).not.toContain(covering.report.id);
    expect(await ids(onlyOne.secret, { channel_id: one })).not.toContain(covering.report.id);
    expect((await r.download(covering.report.id, onlyOne.secret)).status).toBe(404);
  });

  it('is empty but for the header when nothing was created in the range', async () => {
    const { text, report } = await r.csvOf({ report_type: 'INVOICES', date_from: '2020-01-01T00:00:00Z', date_to: '2020-02-01T00:00:00Z' });
    expect(text).toBe(`${INVOICE_HEADER}\r\n`);
    expect((await r.waitForStatus(report.id, 'SUCCEEDED')).rowCount).toBe(0);
  });
});

describe('SUBSCRIPTIONS report', () => {
  it('has the section 2.8 header and one row per line item, parsed back equal to the subscriptions', async () => {
    const [one, two] = platform.channelIds;
    const full = await insertSubscription(platform, { channelId: one, customerId: world.customerA, createdAt: new Date('2026-01-05T00:00:00Z'), lines: 2, full: true });
    const plain = await insertSubscription(platform, { channelId: two, customerId: world.customerB, createdAt: new Date('2026-01-06T00:00:00Z'), lines: 1 });
    const atFrom = await insertSubscription(platform, { channelId: two, customerId: world.customerB, createdAt: new Date('2026-01-06T00:00:00Z'), lines: 1 });
    await setCreatedAt(platform, 'subscriptions', atFrom, FROM);
    const atTo = await insertSubscription(platform, { channelId: one, customerId: world.customerA, createdAt: new Date(TO), lines: 1 });
    const lines = await platform.db.subscriptionLineItem.findMany({ where: { subscriptionId: full }, orderBy: { position: 'asc' } });

    const { text, rows, errors } = await r.csvOf({ report_type: 'SUBSCRIPTIONS', date_from: FROM, date_to: TO });
    expect(errors).toEqual([]);
    expect(text.split('\r\n')[0]).toBe(SUBSCRIPTION_HEADER);
    expect(rows.map((row) => row.id)).toEqual([atFrom, full, full, plain]);
    expect(rows.map((row) => row.id)).not.toContain(atTo);

    const shared = {
      id: full,
      customer_id: world.customerA,
      status: 'TRIALING',
      currency: 'EUR',
      description: 'Gold plan, "annual"',
      payment_instrument_id: 'pi_fixture',
      latest_invoice_id: 'inv_fixture',
      merchant_reference: 'SUB-1',
      created_at: '2026-01-05T00:00:00.000000Z',
      updated_at: '2026-01-05T01:00:00.000000Z',
      started_at: '2026-01-05T00:00:00.000000Z',
      next_billing_at: '2026-02-05T00:00:00.000000Z',
      anchor_at: '2026-01-05T00:00:00.000000Z',
      trial_info_type: 'PAID',
      trial_info_amount: '100',
      trial_info_period_start_at: '2026-01-05T00:00:00.000000Z',
      trial_info_period_end_at: '2026-01-19T00:00:00.000000Z',
      trial_info_period_config_value: '14',
      trial_info_period_config_unit: 'DAY',
      cancellation_info_cancel_at: '2026-03-05T00:00:00.000000Z',
      cancellation_info_requested_at: '2026-01-06T08:00:00.000000Z',
      cancellation_info_reason: 'CANCELLATION_REQUESTED',
      cancellation_info_comment: 'Too expensive, sorry',
    };
    expect(rows[1]).toEqual({
      ...shared,
      discounts: expect.any(String),
      metadata: expect.any(String),
      line_item_id: lines[0]!.id,
      line_item_product_id: '0190c3a8-0000-7000-8000-00000000000a',
      line_item_product_price_id: '0190c3a8-0000-7000-8000-000000000100',
      line_item_billing_type: 'RECURRING',
      line_item_currency: 'EUR',
      line_item_amount: '1000',
      line_item_quantity: '1',
      line_item_started_at: '2026-01-05T00:00:00.000000Z',
      line_item_period_start_at: '2026-01-05T00:00:00.000000Z',
      line_item_period_end_at: '2026-02-05T00:00:00.000000Z',
      line_item_billing_period_config_value: '1',
      line_item_billing_period_config_unit: 'MONTH',
      line_item_product_info_name: 'Seat 0',
      line_item_product_info_description: 'The first seat',
      line_item_created_at: '2026-01-05T00:00:00.000000Z',
      line_item_updated_at: '2026-01-05T01:00:00.000000Z',
    });
    expect(JSON.parse(rows[1]!.discounts!)).toEqual([
      { coupon_id: '0190c3a8-0000-7000-8000-000000000001', coupon_code: 'WELCOME', calculation_type: 'PERCENTAGE', calculation_value: 15 },
    ]);
    expect(JSON.parse(rows[1]!.metadata!)).toEqual({ plan: 'gold', seats: '5' });
    expect(rows[2]).toMatchObject({
      ...shared,
      line_item_id: lines[1]!.id,
      line_item_billing_type: 'ONE_TIME',
      line_item_amount: '1001',
      line_item_quantity: '2',
      line_item_started_at: '',
      line_item_period_end_at: '',
      line_item_billing_period_config_value: '',
      line_item_billing_period_config_unit: '',
      line_item_product_info_description: '',
    });
    expect(rows[3]).toMatchObject({
      id: plain,
      status: 'ACTIVE',
      description: '',
      trial_info_type: '',
      trial_info_amount: '',
      cancellation_info_reason: '',
      discounts: '[]',
      metadata: '',
      started_at: '',
    });
  });
});

describe('formula injection', () => {
  it('escapes free text a merchant or customer typed, never ids, enums, amounts or date-times', async () => {
    const customer = await r.ok('customers/create', {
      type: 'INDIVIDUAL',
      email: '-2+3@example.com',
      first_name: '=HYPERLINK("http://evil.example","x")',
      last_name: '@SUM(A1)',
      phone: '+442071234567',
      address: { line1: '@home', line2: '=2', city: '+City', postal_code: '-1', state: 'Plain', country: 'GBR' },
      channel_id: platform.channelIds[0],
    });
    const invoice = await r.ok('invoices/create', {
      customer_id: customer.id,
      currency: 'EUR',
      line_items: [{ amount: 500, description: '=cmd|/C calc!A0', quantity: 1 }],
      notes: '+1+1',
      merchant_reference: '-PO',
    });
    await setCreatedAt(platform, 'invoices', invoice.id, '2026-06-10T00:00:00Z');
    const { rows, errors } = await r.csvOf({ report_type: 'INVOICES', date_from: '2026-06-01', date_to: '2026-07-01' });
    expect(errors).toEqual([]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: invoice.id,
      notes: "'+1+1",
      merchant_reference: "'-PO",
      customer_first_name: '\'=HYPERLINK("http://evil.example","x")',
      customer_last_name: "'@SUM(A1)",
      customer_email: "'-2+3@example.com",
      customer_phone: '+442071234567',
      customer_address_line1: "'@home",
      customer_address_line2: "'=2",
      customer_address_city: "'+City",
      customer_address_postal_code: "'-1",
      customer_address_state: 'Plain',
      line_item_description: "'=cmd|/C calc!A0",
      line_item_amount: '500',
      total_amount: '500',
    });
  });

  it('leaves a negative amount and every column outside the free-text ones as they are', async () => {
    const row = subscriptionRowOfFormulae();
    let text = '';
    for await (const chunk of reportCsv('SUBSCRIPTIONS', (async function* () { yield [row]; })())) text += chunk;
    const [header, line] = Papa.parse<string[]>(text.trimEnd()).data;
    const written = Object.fromEntries(header!.map((column, index) => [column, line![index]]));
    for (const [index, column] of SUBSCRIPTION_REPORT_COLUMNS.entries()) {
      const value = row[index] === null ? '' : String(row[index]);
      const free = FREE_TEXT_COLUMNS.SUBSCRIPTIONS.includes(column);
      expect({ column, written: written[column] }).toEqual({ column, written: free && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value });
    }
    expect(written).toMatchObject({ trial_info_amount: '-100', line_item_amount: '-5', description: "'-desc", cancellation_info_comment: "'=1" });
  });
});

/** A subscription row whose every cell starts with a formula character, amounts negative. */
function subscriptionRowOfFormulae(): Cell[] {
  const row = SUBSCRIPTION_REPORT_COLUMNS.map((column, index): Cell => (index % 3 === 0 ? `-${column}` : `=${column}`));
  const set = (column: (typeof SUBSCRIPTION_REPORT_COLUMNS)[number], value: Cell) => (row[SUBSCRIPTION_REPORT_COLUMNS.indexOf(column)] = value);
  set('trial_info_amount', -100);
  set('line_item_amount', -5);
  set('description', '-desc');
  set('cancellation_info_comment', '=1');
  return row;
}

describe('keyset paging', () => {
  async function collect(scope: ReportScope, size: number) {
    const rows: Cell[][] = [];
    let pages = 0;
    for await (const page of reportPages(platform.db, scope, size)) {
      pages++;
      expect(page.length).toBeLessThanOrEqual(size);
      // pdf_url (column 7) is signed afresh on each run.
      rows.push(...page.map((row) => (scope.reportType === 'INVOICES' ? row.filter((_, column) => column !== 6) : row)));
    }
    return { rows, pages };
  }

  it('gives the same rows whatever the page size, pages ending inside an invoice and on microsecond timestamps included', async () => {
    for (const reportType of ['INVOICES', 'SUBSCRIPTIONS'] as const) {
      const scope: ReportScope = {
        reportType,
        accountId: platform.accountId,
        channelIds: [],
        dateFrom: new Date(FROM),
        dateTo: new Date(TO),
        linksValidUntil: new Date(Date.now() + 86_400_000),
      };
      const whole = await collect(scope, 1000);
      expect(whole.pages).toBe(1);
      expect(whole.rows.length).toBeGreaterThan(3);
      for (const size of [1, 2, 3]) {
        const paged = await collect(scope, size);
        expect({ reportType, size, rows: paged.rows }).toEqual({ reportType, size, rows: whole.rows });
        expect(paged.pages).toBe(Math.ceil(whole.rows.length / size));
      }
    }
  });
});

describe('reports/create', () => {
  async function constraint(body: Record<string, unknown>, field: string) {
    const res = await platform.call('/v2/reports/create', body);
    expect(res.status).toBe(400);
    return res.body.context.constraints[field];
  }

  it('answers at once with the report record, PROCESSING, expiring 30 days after creation', async () => {
    const res = await platform.call('/v2/reports/create', { report_type: 'SUBSCRIPTIONS', date_from: FROM, date_to: TO });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^rprt_/),
      report_type: 'SUBSCRIPTIONS',
      status: 'PROCESSING',
      date_from: FROM,
      date_to: TO,
      channel_ids: [],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      updated_at: res.body.created_at,
      expires_at: expect.any(String),
    });
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBe(30 * 24 * 3600 * 1000);
    const done = await r.waitForStatus(res.body.id, 'SUCCEEDED');
    const listed = await r.ok('reports/list', { filters: { report_type: { operator: 'EQ', value: 'SUBSCRIPTIONS' } }, pagination: { page_size: 1 } });
    expect(listed.items[0]).toMatchObject({ id: res.body.id, status: 'SUCCEEDED', row_count: done.rowCount, byte_size: Number(done.byteSize) });
  });

  it('takes a range of any length: the export streams (section 2.8 sets no limit)', async () => {
    const { rows } = await r.csvOf({ report_type: 'INVOICES', date_from: '2023-01-01', date_to: '2026-02-02' });
    expect(rows.map((row) => row.id)).toEqual(expect.arrayContaining([world.justBefore, world.atTo, world.open.id]));
  });

  it('refuses an empty or reversed range and an unknown type', async () => {
    expect(await constraint({ report_type: 'INVOICES', date_from: FROM, date_to: FROM }, 'date_to')).toMatchObject({ type: 'MIN' });
    expect(await constraint({ report_type: 'INVOICES', date_from: TO, date_to: FROM }, 'date_to')).toMatchObject({ type: 'MIN' });
    expect(await constraint({ report_type: 'PAYMENTS', date_from: FROM, date_to: TO }, 'report_type')).toMatchObject({ type: 'ENUM' });
    expect(await constraint({ report_type: 'INVOICES', date_from: '2026-01-01T00:00:00+01:00', date_to: TO }, 'date_from')).toMatchObject({ type: 'FORMAT' });
    expect(await constraint({ report_type: 'INVOICES', date_from: '2026-02-30', date_to: TO }, 'date_from')).toMatchObject({ type: 'FORMAT' });
    expect(await constraint({ report_type: 'INVOICES', date_from: '2026/01/01', date_to: TO }, 'date_from')).toMatchObject({ type: 'FORMAT' });
    expect(await constraint({ report_type: 'INVOICES', date_from: '2026-01-01', date_to: '2026-01-01' }, 'date_to')).toMatchObject({ type: 'MIN' });
  });

  it('takes dates YYYY-MM-DD (section 1) as UTC midnight, from inclusive and to exclusive, and shows them as date-times', async () => {
    const res = await platform.call('/v2/reports/create', { report_type: 'INVOICES', date_from: '2026-01-01', date_to: '2026-02-01' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ date_from: FROM, date_to: TO });
    const stored = await platform.db.report.findUniqueOrThrow({ where: { id: res.body.id } });
    expect([stored.dateFrom.toISOString(), stored.dateTo.toISOString()]).toEqual(['2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z']);
    const byDates = await r.csvOf({ report_type: 'INVOICES', date_from: '2026-01-01', date_to: '2026-02-01' });
    const byDateTimes = await r.csvOf({ report_type: 'INVOICES', date_from: FROM, date_to: TO });
    expect(byDates.rows.map((row) => row.id)).toEqual(byDateTimes.rows.map((row) => row.id));
    const mixed = await platform.call('/v2/reports/create', { report_type: 'INVOICES', date_from: '2026-01-01', date_to: '2026-01-15T12:00:00Z' });
    expect(mixed.body).toMatchObject({ date_from: FROM, date_to: '2026-01-15T12:00:00.000000Z' });
  });

  it('shows both forms of the bounds in the OpenAPI document', async () => {
    const document = (await (await fetch(`${platform.baseUrl}/openapi.json`)).json()) as any;
    const ref = document.paths['/v2/reports/create'].post.requestBody.content['application/json'].schema;
    const schema = ref.$ref ? document.components.schemas[ref.$ref.split('/').pop()] : ref;
    for (const field of ['date_from', 'date_to']) {
      const formats = (schema.properties[field].anyOf ?? schema.properties[field].oneOf).map((branch: any) => branch.format);
      expect({ field, formats: formats.sort() }).toEqual({ field, formats: ['date', 'date-time'] });
    }
  });

  it('needs the list permission of the report type', async () => {
    const key = await keyWith(['reports:create', 'reports:download', 'reports:list', 'subscriptions:list']);
    const refused = await platform.call('/v2/reports/create', { report_type: 'INVOICES', date_from: FROM, date_to: TO }, { secret: key.secret });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'PERMISSION_DENIED', context: { required_permission: 'invoices:list' } });
    const res = await platform.call('/v2/reports/create', { report_type: 'SUBSCRIPTIONS', date_from: FROM, date_to: TO }, { secret: key.secret });
    expect(res.status).toBe(200);
  });

  it('422 CHANNEL_NOT_FOUND for a channel of no account', async () => {
    const res = await platform.call('/v2/reports/create', { report_type: 'INVOICES', date_from: FROM, date_to: TO, channel_id: 'chn_nope' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CHANNEL_NOT_FOUND');
  });
});

describe('reports/list', () => {
  it('lists newest first with cursor paging, and only the report types the key may access', async () => {
    const created: string[] = [];
    for (const type of ['INVOICES', 'SUBSCRIPTIONS', 'INVOICES']) {
      created.push((await r.ok('reports/create', { report_type: type, date_from: FROM, date_to: TO })).id);
    }
    const first = await r.ok('reports/list', { pagination: { page_size: 2 } });
    expect(first.items.map((item: any) => item.id)).toEqual([created[2], created[1]]);
    const second = await r.ok('reports/list', { pagination: { page_size: 2, next_page_token: first.pagination.next_page_token } });
    expect(second.items[0].id).toBe(created[0]);

    const all = await r.ok('reports/list', { pagination: { page_size: 100 } });
    const ids = all.items.map((item: any) => item.id);
    expect(ids).toEqual([...ids].sort().reverse());

    const key = await keyWith(['reports:list', 'reports:download', 'subscriptions:list']);
    const limited = await r.ok('reports/list', { pagination: { page_size: 100 } }, key.secret);
    expect(limited.items.length).toBeGreaterThan(0);
    expect(new Set(limited.items.map((item: any) => item.report_type))).toEqual(new Set(['SUBSCRIPTIONS']));
    expect(limited.items.map((item: any) => item.id)).toEqual(all.items.filter((item: any) => item.report_type === 'SUBSCRIPTIONS').map((item: any) => item.id));
    const none = await r.ok('reports/list', { filters: { report_type: { operator: 'EQ', value: 'INVOICES' } } }, key.secret);
    expect(none.items).toEqual([]);

    await r.waitForStatus(created[2]!, 'SUCCEEDED');
    const refused = await r.download(created[2]!, key.secret);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'PERMISSION_DENIED', context: { required_permission: 'invoices:list' } });
  });
});

describe('reports/download', () => {
  it('answers 303 with a short-lived signed Location that serves the file; tampered or expired links are refused', async () => {
    const a = await r.ok('reports/create', { report_type: 'INVOICES', date_from: FROM, date_to: TO });
    const b = await r.ok('reports/create', { report_type: 'SUBSCRIPTIONS', date_from: FROM, date_to: TO });
    await r.waitForStatus(a.id, 'SUCCEEDED');
    await r.waitForStatus(b.id, 'SUCCEEDED');
    const before = Math.floor(Date.now() / 1000);
    const res = await r.download(a.id);
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(res.body).toEqual({ location });
    expect(res.headers.get('request-id')).toMatch(/^req_/);
    const url = new URL(location);
    expect(url.pathname).toBe(`/files/stored/reports/${a.id}/report.csv`);
    const expires = Number(url.searchParams.get('expires'));
    expect(expires - before).toBeGreaterThanOrEqual(299);
    expect(expires - before).toBeLessThanOrEqual(301);

    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect((await file.text()).split('\r\n')[0]).toBe(INVOICE_HEADER);

    // A fetch that follows the redirect, as a browser or `curl -L` would, ends at the file.
    const followed = await fetch(`${platform.baseUrl}/v2/reports/download`, {
      method: 'POST',
      headers: { authorization: `Bearer ${platform.rootSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: a.id }),
    });
    expect(followed.status).toBe(200);
    expect((await followed.text()).split('\r\n')[0]).toBe(INVOICE_HEADER);

    const tampered = [
      location.replace(a.id, b.id),
      location.replace(/signature=[^&]+/, `signature=${'A'.repeat(43)}`),
      location.replace(/expires=\d+/, `expires=${expires + 3600}`),
      location.replace(/filename=[^&]+/, 'filename=x.csv'),
    ];
    for (const link of tampered) {
      const refused = await fetch(link);
      expect({ link, status: refused.status, code: ((await refused.json()) as any).code }).toEqual({ link, status: 403, code: 'PERMISSION_DENIED' });
    }

    const stale = storedFileUrl(`reports/${a.id}/report.csv`, `invoices-${a.id}.csv`, new Date(Date.now() - 10 * 60_000))!;
    const expired = await fetch(stale);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as any).context.expired_at).toMatch(/Z$/);
  });

  it('422 INCOMPATIBLE_STATUS unless SUCCEEDED; 404 for another account’s or an unknown report', async () => {
    const now = new Date();
    const row = (status: string) => ({
      id: newId('report'),
      accountId: platform.accountId,
      apiKeyId: 'akey_fixture',
      channelIds: [],
      reportType: 'INVOICES',
      dateFrom: new Date(FROM),
      dateTo: new Date(TO),
      status,
      expiresAt: new Date(now.getTime() + 86_400_000),
      createdAt: now,
      updatedAt: now,
    });
    for (const status of ['PROCESSING', 'FAILED', 'EXPIRED']) {
      const report = await platform.db.report.create({ data: row(status) });
      const res = await r.download(report.id);
      expect({ status, http: res.status, body: res.body }).toEqual({
        status,
        http: 422,
        body: { code: 'INCOMPATIBLE_STATUS', message: expect.any(String), context: { status } },
      });
    }
    const foreign = await platform.db.report.create({ data: { ...row('SUCCEEDED'), accountId: 'acct_other', storageKey: 'reports/x/report.csv' } });
    expect((await r.download(foreign.id)).status).toBe(404);
    expect((await r.download(newId('report'))).status).toBe(404);
  });

  it('is documented as a 303 with a Location header', async () => {
    const document = (await (await fetch(`${platform.baseUrl}/openapi.json`)).json()) as any;
    const responses = document.paths['/v2/reports/download'].post.responses;
    expect(responses['200']).toBeUndefined();
    expect(responses['303'].headers.Location.schema).toEqual({ type: 'string', format: 'uri' });
    expect(document.paths['/v2/reports/list'].post.responses['200']).toBeDefined();
    // The /docs page renders this document in the browser: test/api-reference/reference-page.test.ts.
  });
});
