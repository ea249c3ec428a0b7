import type { Platform } from '../support/platform';
import { DAY, MINUTE, useSubscriptionPlatform, waitFor, type SubscriptionSteps } from '../subscriptions/fixtures';

/*
 * The preview taken before a renewal or an update equals, field by field, the invoice the
 * workflow then issues (its InvoiceFinalized payload: the invoice as finalization wrote it), in
 * the time-skipping environment. Nothing is computed twice here: both sides come from the platform.
 */

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

const VAT_EXCLUSIVE = { mode: 'EXCLUSIVE', rate: 20 } as const;
const VAT_INCLUSIVE = { mode: 'INCLUSIVE', rate: 7.5 } as const;

/** A payer with a default card and an address country, so taxed lines can be invoiced. */
async function taxedPayer() {
  const payer = await s.payer();
  await s.ok('customers/patch', { id: payer.customerId, address: { country: 'DEU', city: 'Berlin' } });
  return payer;
}

async function preview(body: Record<string, unknown>) {
  return s.ok('invoices/preview', body);
}

/** The invoice `id` as it was issued: the InvoiceFinalized payload. */
async function issued(id: string) {
  const event = await waitFor(`InvoiceFinalized of ${id}`, () =>
    platform.db.outboxEvent.findFirst({ where: { eventType: 'INVOICE_FINALIZED', data: { path: ['invoice', 'id'], equals: id } } }).then((e) => e ?? undefined),
  );
  return (event.data as { invoice: Record<string, any> }).invoice;
}

/** The fields an issued invoice and a preview share: everything but what only issuing (id, status, times, document) or previewing adds. */
function shared(invoice: Record<string, any>) {
  const { id, status, pdf_url, hosted_invoice_url, finalized_at, paid_at, voided_at, created_at, updated_at, issued_at, period, starting_balance, ending_balance, line_items, ...rest } = invoice;
  return { ...rest, line_items: (line_items as Record<string, unknown>[]).map(({ id: _id, ...line }) => line) };
}

/**
 * `later` is `earlier` or up to two minutes after it. An invoice is issued when the worker runs
 * after its timer fires, and the test's clock may have skipped to the end of its sleep (a minute
 * past the timer) by then; an update is made a moment after its preview. Comparing the two as
 * the same minute failed whenever that moment crossed a minute boundary.
 */
function expectShortlyAfter(later: string, earlier: string) {
  const lag = Date.parse(later) - Date.parse(earlier);
  expect({ later, earlier, lag: lag >= 0 && lag <= 2 * MINUTE }).toEqual({ later, earlier, lag: true });
}

/** Checks the preview against the invoice issued from it, field by field, and that it was issued when and for the period the preview said. */
async function expectIssuedAsPreviewed(previewed: Record<string, any>, invoiceId: string, subscriptionId: string, fromUpdate = false) {
  const invoice = await issued(invoiceId);
  // A sent invoice is due days_until_due after the instant it is really issued, which is the
  // boundary plus however late the worker's timer fires: compared as the term from issue to due.
  const term = (at: string | undefined, from: string) => (at === undefined ? undefined : Date.parse(at) - Date.parse(from));
  expect({ ...shared(invoice), due_at: term(invoice.due_at, invoice.created_at) }).toEqual({ ...shared(previewed), due_at: term(previewed.due_at, previewed.issued_at) });
  expectShortlyAfter(invoice.created_at, previewed.issued_at);
  if (!/^Proration/.test(previewed.line_items[0]?.description ?? '')) {
    const subscription = await s.get(subscriptionId);
    const recurring = subscription.line_items.find((line: { billing_period_config?: unknown }) => line.billing_period_config);
    expect(recurring.period.end_at).toBe(previewed.period.end_at);
    // A period that starts at an update starts when the update is made, a moment after the preview.
    expectShortlyAfter(recurring.period.start_at, previewed.period.start_at);
    if (!fromUpdate) expect(recurring.period.start_at).toBe(previewed.period.start_at);
  }
  return invoice;
}

/** The newest invoice of the subscription once there are `count`. */
/** The count-th invoice of the subscription that bills (a removed line's credit is a credit invoice of its own, docs/customer-balance.md). */
async function nth(subscriptionId: string, count: number) {
  const list = await waitFor(`${count} invoices of ${subscriptionId}`, async () => {
    const invoices = (await s.invoices(subscriptionId)).filter((invoice: { totalAmount: number }) => invoice.totalAmount >= 0);
    return invoices.length >= count ? invoices : undefined;
  }, 60_000);
  return list[count - 1]!;
}

async function activeWeekly(lines: (priceIds: { seat: string }) => unknown[], extra: Record<string, unknown> = {}) {
  const { customerId } = await taxedPayer();
  const seat = await s.price(700, { value: 1, unit: 'WEEK' }, 'Seat');
  const startsAt = await s.soon();
  const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: lines({ seat }), starts_at: startsAt, ...extra });
  await s.sleep(2 * MINUTE);
  await s.statusBecomes(created.id, 'ACTIVE');
  return { id: created.id as string, customerId, start: Date.parse(startsAt), created };
}

describe('invoices/preview equals the invoice then issued', () => {
  it('a FREE trial ending off the anchor: the first, prorated invoice', async () => {
    const { customerId } = await taxedPayer();
    const priceId = await s.price(7_000, { value: 1, unit: 'WEEK' }, 'Team');
    const startsAt = await s.soon();
    const start = Date.parse(startsAt);
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: priceId, quantity: 2, tax: VAT_EXCLUSIVE }],
      starts_at: startsAt,
      trial: { type: 'FREE', end_at: new Date(start + 2 * DAY).toISOString() },
      anchor_at: new Date(start + 7 * DAY).toISOString(),
    });
    // Taken while still CREATED: the trial's start comes first, then the bill at its end.
    const before = await preview({ subscription_id: created.id });
    await s.sleep(DAY);
    expect(await preview({ subscription_id: created.id })).toEqual(before);
    expect(before.next_invoice).toMatchObject({ billing_reason: 'SUBSCRIPTION_CREATE', issued_at: new Date(start + 2 * DAY).toISOString().replace('Z', '000Z') });
    expect(before.next_invoice.line_items[0].description).toMatch(/prorated/);
    await s.sleep(DAY + MINUTE);
    await s.statusBecomes(created.id, 'ACTIVE');
    await expectIssuedAsPreviewed(before.next_invoice, (await nth(created.id, 1)).id, created.id);
  });

  it('end_trial: the first invoice, issued at once and prorated up to the anchor', async () => {
    const { customerId } = await taxedPayer();
    const priceId = await s.price(700, { value: 1, unit: 'WEEK' }, 'Team');
    const startsAt = await s.soon();
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: priceId, quantity: 1, tax: VAT_INCLUSIVE }],
      starts_at: startsAt,
      trial: { type: 'FREE', end_at: new Date(Date.parse(startsAt) + 7 * DAY).toISOString() },
    });
    await s.sleep(3 * DAY);
    const before = await preview({ subscription_id: created.id, subscription_update: { end_trial: true }, proration_date: new Date(await s.now()).toISOString() });
    expect(before.update_invoice).toBeNull();
    expect(before.next_invoice).toMatchObject({ billing_reason: 'SUBSCRIPTION_CREATE' });
    await s.ok('subscriptions/update', { id: created.id, end_trial: true });
    await expectIssuedAsPreviewed(before.next_invoice, (await nth(created.id, 1)).id, created.id, true);
  });

  it('a PAID trial: its trial invoice, then the first cycle when it ends', async () => {
    const { customerId } = await taxedPayer();
    const priceId = await s.price(3_300, { value: 1, unit: 'WEEK' }, 'Team');
    const startsAt = await s.soon();
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: priceId, quantity: 1, tax: VAT_EXCLUSIVE }],
      starts_at: startsAt,
      trial: { type: 'PAID', amount: 500, end_at: new Date(Date.parse(startsAt) + 3 * DAY).toISOString() },
    });
    const trial = await preview({ subscription_id: created.id });
    expect(trial.next_invoice).toMatchObject({ billing_reason: 'SUBSCRIPTION_CREATE', total_amount: 500 });
    await s.sleep(2 * MINUTE);
    await s.statusBecomes(created.id, 'TRIALING');
    const trialInvoice = await issued((await nth(created.id, 1)).id);
    expect(shared(trialInvoice)).toEqual(shared(trial.next_invoice));
    const first = await preview({ subscription_id: created.id });
    expect(first.next_invoice).toMatchObject({ billing_reason: 'SUBSCRIPTION_CYCLE', period: { start_at: trial.next_invoice.period.end_at } });
    await s.sleep(3 * DAY);
    await s.statusBecomes(created.id, 'ACTIVE');
    await expectIssuedAsPreviewed(first.next_invoice, (await nth(created.id, 2)).id, created.id);
  });

  it('billed by invoice: the first invoice with its due date', async () => {
    const customerId = await s.customer();
    const priceId = await s.price(1_250, { value: 1, unit: 'WEEK' }, 'Seat');
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: priceId, quantity: 2 }],
      starts_at: await s.soon(),
      settings: { days_until_due: 14 },
    });
    expect(created.collection_method).toBe('SEND_INVOICE');
    const before = await preview({ subscription_id: created.id });
    expect(before.next_invoice).toMatchObject({ collection_method: 'SEND_INVOICE', due_at: new Date(Date.parse(before.next_invoice.issued_at) + 14 * DAY).toISOString().replace('Z', '000Z') });
    expect(before.next_invoice.payment_instrument_id).toBeUndefined();
    await s.sleep(2 * MINUTE);
    await expectIssuedAsPreviewed(before.next_invoice, (await nth(created.id, 1)).id, created.id);
  });

  it('INCLUSIVE and EXCLUSIVE tax under PERCENTAGE and AMOUNT coupons: the renewal', async () => {
    const percent = await s.ok('coupons/create', { code: `P${Date.now()}`, calculation_type: 'PERCENTAGE', calculation_value: 12.5 });
    const amount = await s.ok('coupons/create', { code: `A${Date.now()}`, calculation_type: 'AMOUNT', calculation_value: 133, currency: 'EUR' });
    const other = await s.price(1_999, { value: 1, unit: 'WEEK' }, 'Add-on');
    const { id } = await activeWeekly(({ seat }) => [
      { product_price_id: seat, quantity: 3, tax: VAT_EXCLUSIVE },
      { product_price_id: other, quantity: 1, tax: VAT_INCLUSIVE },
    ], { discounts: [{ coupon_code: percent.code }, { coupon_id: amount.id }] });
    const before = await preview({ subscription_id: id });
    expect(before.next_invoice.amount_details.discount).toBeGreaterThan(0);
    expect(before.next_invoice.amount_details.tax).toBeGreaterThan(0);
    expect(before.update_invoice).toBeUndefined();
    await s.sleep(7 * DAY);
    await expectIssuedAsPreviewed(before.next_invoice, (await nth(id, 2)).id, id);
  });

  it('a balance debit, then a balance credit: each renewal as previewed, the balance drawn as finalization draws it', async () => {
    const { id, customerId } = await activeWeekly(({ seat }) => [{ product_price_id: seat, quantity: 2, tax: VAT_EXCLUSIVE }]);
    const adjust = (amount: number) => s.ok('customer-balance-transactions/create', { customer_id: customerId, currency: 'EUR', amount, description: 'Preview equality' });
    await adjust(333);
    const withDebit = await preview({ subscription_id: id });
    expect(withDebit.next_invoice).toMatchObject({ starting_balance: 333, ending_balance: 0, amount_due: withDebit.next_invoice.total_amount + 333 });
    await s.sleep(7 * DAY);
    await expectIssuedAsPreviewed(withDebit.next_invoice, (await nth(id, 2)).id, id);

    await adjust(-500);
    const withCredit = await preview({ subscription_id: id });
    expect(withCredit.next_invoice.amount_details.balance_applied).toBe(500);
    await s.sleep(7 * DAY);
    await expectIssuedAsPreviewed(withCredit.next_invoice, (await nth(id, 3)).id, id);
  });

  it('a coupon that stops applying: the next cycle after an update that removes it', async () => {
    const coupon = await s.ok('coupons/create', { code: `STOP${Date.now()}`, calculation_type: 'PERCENTAGE', calculation_value: 50 });
    const { id } = await activeWeekly(({ seat }) => [{ product_price_id: seat, quantity: 1, tax: VAT_EXCLUSIVE }], { discounts: [{ coupon_id: coupon.id }] });
    const withCoupon = await preview({ subscription_id: id });
    const at = new Date(await s.now()).toISOString();
    const without = await preview({ subscription_id: id, subscription_update: { discounts: [] }, proration_date: at });
    expect(withCoupon.next_invoice.discounts).toHaveLength(1);
    expect(without.update_invoice).toBeNull();
    expect(without.next_invoice).toMatchObject({ discounts: [], amount_details: { discount: 0 } });
    await s.ok('subscriptions/update', { id, discounts: [] });
    await s.sleep(7 * DAY);
    await expectIssuedAsPreviewed(without.next_invoice, (await nth(id, 2)).id, id);
  });

  it('a quantity change mid-cycle: the proration invoice now and the next cycle after it', async () => {
    const { id, start, created } = await activeWeekly(({ seat }) => [{ product_price_id: seat, quantity: 1, tax: VAT_INCLUSIVE }]);
    await s.sleep(start + 4 * DAY - (await s.now()));
    const body = { line_items: { update: [{ id: created.line_items[0].id, quantity: 3 }] } };
    const before = await preview({ subscription_id: id, subscription_update: body, proration_date: new Date(await s.now()).toISOString() });
    expect(before.update_invoice.line_items[0].description).toMatch(/^Proration of 1 line item change/);
    await s.ok('subscriptions/update', { id, ...body });
    await expectIssuedAsPreviewed(before.update_invoice, (await nth(id, 2)).id, id);
    await s.sleep(3 * DAY);
    await expectIssuedAsPreviewed(before.next_invoice, (await nth(id, 3)).id, id);
  });

  it('a line added and a line removed mid-cycle: the proration invoice and the next cycle', async () => {
    const addOn = await s.price(1_400, { value: 1, unit: 'WEEK' }, 'Storage');
    const setup = await s.price(2_500, null, 'Setup');
    const { id, start, created } = await activeWeekly(({ seat }) => [
      { product_price_id: seat, quantity: 1, tax: VAT_EXCLUSIVE },
      { product_price_id: seat, quantity: 2 },
    ]);
    await s.sleep(start + 2 * DAY - (await s.now()));
    const body = { line_items: { add: [{ product_price_id: addOn, quantity: 1, tax: VAT_EXCLUSIVE }, { product_price_id: setup, quantity: 1 }], remove: [created.line_items[1].id] } };
    const before = await preview({ subscription_id: id, subscription_update: body, proration_date: new Date(await s.now()).toISOString() });
    expect(before.update_invoice).not.toBeNull();
    // The ONE_TIME setup line rides on the next cycle, once.
    expect(before.next_invoice.line_items.map((line: { description: string }) => line.description)).toContain('Setup');
    // The removed line's credit goes to the balance (a credit invoice issued after the change's own), so the next cycle draws on it.
    expect(before.next_invoice.amount_details.balance_applied).toBeGreaterThan(0);
    await s.ok('subscriptions/update', { id, ...body });
    await expectIssuedAsPreviewed(before.update_invoice, (await nth(id, 2)).id, id);
    await s.sleep(5 * DAY);
    await expectIssuedAsPreviewed(before.next_invoice, (await nth(id, 3)).id, id);
  });
});
