import type { Platform } from '../support/platform';
import { DAY, MINUTE, useSubscriptionPlatform, type SubscriptionSteps } from '../subscriptions/fixtures';
import { portalSignIn } from './portal-client';

/** docs/portal.md, "The portal's operations": each change through its /v2 operation, as the customer. */
let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

async function setPortalSettings(settings: Record<string, string | boolean | string[]>): Promise<void> {
  await platform.db.account.update({ where: { id: platform.accountId }, data: { portalSettings: settings } });
}

async function auditOf(customerId: string) {
  return platform.db.dashboardAuditEntry.findMany({ where: { accountId: platform.accountId, userId: customerId }, orderBy: { id: 'asc' } });
}

/** An ACTIVE monthly subscription of a customer with a default card. */
async function activeMonthly(amount = 1_000, priceId?: string) {
  const { customerId, instrumentId } = await s.payer();
  const price = priceId ?? (await s.price(amount));
  const startsAt = await s.soon();
  const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: price, quantity: 1 }], starts_at: startsAt });
  await s.sleep(2 * MINUTE);
  await s.statusBecomes(created.id, 'ACTIVE');
  return { id: created.id as string, customerId, instrumentId, lineId: created.line_items[0].id as string, priceId: price };
}

beforeEach(() => setPortalSettings({}));

describe('invoices', () => {
  it('pays an open invoice once under one Idempotency-Key, with the /v2 events, audited as the customer', async () => {
    const { customerId, instrumentId } = await s.payer();
    const invoice = await s.openInvoice(customerId, { amount: 4_200, collection_method: 'SEND_INVOICE' });
    const portal = await portalSignIn(platform, customerId);
    const listed = await portal.ok('invoices/list');
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).toMatchObject({ id: invoice.id, status: 'OPEN', amount_due: 4_200 });

    const key = { 'idempotency-key': 'portal-pay-1' };
    const [first, second] = await Promise.all([
      portal.post('invoices/pay', { id: invoice.id, payment_instrument_id: instrumentId }, { headers: key }),
      portal.post('invoices/pay', { id: invoice.id, payment_instrument_id: instrumentId }, { headers: key }),
    ]);
    const answers = [first, second].filter((answer) => answer.status === 200);
    expect(answers.length).toBeGreaterThanOrEqual(1);
    expect(answers[0]!.body).toMatchObject({ invoice: { id: invoice.id, status: 'PAID' }, payment: { status: 'SUCCEEDED', amount: 4_200 } });
    const replay = await portal.post('invoices/pay', { id: invoice.id, payment_instrument_id: instrumentId }, { headers: key });
    expect(replay.body.payment.id).toBe(answers[0]!.body.payment.id);
    expect(await platform.db.payment.count({ where: { invoiceId: invoice.id } })).toBe(1);

    const events = await platform.db.outboxEvent.findMany({ where: { accountId: platform.accountId, eventType: 'INVOICE_PAID' } });
    expect(events.filter((event) => (event.data as any).invoice?.id === invoice.id)).toHaveLength(1);
    expect((await auditOf(customerId)).map((entry) => [entry.actorType, entry.action, entry.objectId, entry.userEmail])).toEqual([
      ['CUSTOMER', 'invoices/pay', invoice.id, 'payer@example.com'],
    ]);
  });

  it('lists issued invoices and credit notes newest first, never a draft', async () => {
    const { customerId } = await s.payer();
    const older = await s.openInvoice(customerId, { amount: 1_000, collection_method: 'SEND_INVOICE' });
    const newer = await s.openInvoice(customerId, { amount: 2_000, collection_method: 'SEND_INVOICE' });
    await s.ok('invoices/create', { customer_id: customerId, currency: 'EUR', line_items: [{ amount: 5, description: 'draft', quantity: 1 }] });
    const credit = await s.ok('credit-notes/create', { invoice_id: newer.id, amount: 500, reason: 'PRODUCT_UNSATISFACTORY' });
    const portal = await portalSignIn(platform, customerId);
    const page = await portal.ok('invoices/list', { limit: 1 });
    expect(page.data.map((invoice: { id: string }) => invoice.id)).toEqual([newer.id]);
    const next = await portal.ok('invoices/list', { limit: 1, cursor: page.next_cursor });
    expect(next.data.map((invoice: { id: string }) => invoice.id)).toEqual([older.id]);
    expect(next.next_cursor).toBeNull();
    expect((await portal.ok('credit-notes/list')).data.map((note: { id: string }) => note.id)).toEqual([credit.id]);
  });
});

describe('payment methods', () => {
  it('adds a card, makes it the default, and removes only one no live subscription needs', async () => {
    const { id: subscriptionId, customerId, instrumentId: used } = await activeMonthly();
    const portal = await portalSignIn(platform, customerId);
    const year = new Date().getUTCFullYear() + 4;
    const added = await portal.ok('payment-instruments/add-card', { card: { number: '5555 5555 5555 4444', exp_month: 6, exp_year: year, cardholder_name: 'Ada' } });
    expect(added).toMatchObject({ customer_id: customerId, status: 'ACTIVE', card: { last4: '4444', cardholder_name: 'Ada' } });
    expect(JSON.stringify(await auditOf(customerId))).not.toContain('5555555555554444');

    const list = await portal.ok('payment-instruments/list');
    expect(list.data.map((card: { id: string }) => card.id).sort()).toEqual([added.id, used].sort());
    expect(list.default_payment_instrument_id).toBe(used);
    expect(list.in_use).toEqual({ [used]: [subscriptionId] });

    const refused = await portal.post('payment-instruments/remove', { id: used });
    expect(refused).toMatchObject({ status: 422, body: { code: 'INSTRUMENT_IN_USE', context: { subscription_ids: [subscriptionId] } } });
    expect((await platform.db.paymentInstrument.findUniqueOrThrow({ where: { id: used } })).status).toBe('ACTIVE');

    const customer = await portal.ok('payment-instruments/set-default', { id: added.id });
    expect(customer.configuration.default_payment_instrument_id).toBe(added.id);
    const removed = await portal.ok('payment-instruments/remove', { id: added.id });
    expect(removed).toMatchObject({ id: added.id, status: 'REVOKED' });
    expect((await s.ok('customers/get', { id: customerId })).configuration?.default_payment_instrument_id).toBeUndefined();
    expect((await auditOf(customerId)).map((entry) => entry.action)).toEqual(['payment-instruments/tokenize', 'customers/update', 'payment-instruments/revoke']);
  });
});

describe('subscriptions', () => {
  it('cancels at the period end as the account allows, with the reason of spec 2.4, and undoes it', async () => {
    const { id, customerId } = await activeMonthly();
    const portal = await portalSignIn(platform, customerId);
    const preview = await portal.ok('subscriptions/preview', { id });
    expect(preview.next_invoice).toMatchObject({ total_amount: 1_000 });

    const cancelled = await portal.ok('subscriptions/cancel', { id, comment: 'Too expensive' }, { 'idempotency-key': 'cancel-1' });
    expect(cancelled.status).toBe('ACTIVE');
    expect(cancelled.cancellation_info).toMatchObject({ reason: 'CANCELLATION_REQUESTED', comment: 'Too expensive', requested_by: 'CUSTOMER' });
    expect(Date.parse(cancelled.cancellation_info.cancel_at)).toBeGreaterThan(Date.parse(cancelled.cancellation_info.requested_at) + 20 * DAY);

    const undone = await portal.ok('subscriptions/undo-cancel', { id });
    expect(undone.cancellation_info).toBeUndefined();
    expect((await auditOf(customerId)).map((entry) => [entry.actorType, entry.action, entry.objectId])).toEqual([
      ['CUSTOMER', 'subscriptions/cancel', id],
      ['CUSTOMER', 'subscriptions/delete-cancellation', id],
    ]);
  });

  it('refuses to cancel when the account says never, cancels at once when it says immediately, and leaves a merchant’s cancellation to the merchant', async () => {
    const { id, customerId } = await activeMonthly();
    const portal = await portalSignIn(platform, customerId);
    await setPortalSettings({ cancellation: 'NEVER' });
    expect(await portal.post('subscriptions/cancel', { id })).toMatchObject({ status: 403, body: { code: 'PERMISSION_DENIED', context: { portal_setting: 'cancellation' } } });
    expect((await s.get(id)).cancellation_info).toBeUndefined();

    // The merchant's own cancellation, with the default reason a customer's has too, is not the customer's to undo.
    const byMerchant = await s.ok('subscriptions/cancel', { id, mode: 'PERIOD_END' });
    expect(byMerchant.cancellation_info.reason).toBe('CANCELLATION_REQUESTED');
    expect(byMerchant.cancellation_info.requested_by).toBeUndefined();
    expect(await portal.post('subscriptions/undo-cancel', { id })).toMatchObject({ status: 403, body: { context: { requested_by: 'MERCHANT' } } });
    expect((await s.get(id)).cancellation_info).toBeDefined();
    await s.ok('subscriptions/delete-cancellation', { id });

    await setPortalSettings({ cancellation: 'IMMEDIATELY' });
    const cancelled = await portal.ok('subscriptions/cancel', { id });
    expect(cancelled.status).toBe('CANCELLED');
    expect(cancelled.cancellation_info).toMatchObject({ reason: 'CANCELLATION_REQUESTED', requested_by: 'CUSTOMER' });
  });
});

describe('billing details', () => {
  it('updates e-mail, address, tax registrations and locales through customers/update, keeping the taxability; refused when the account says no', async () => {
    const { customerId } = await s.payer();
    const portal = await portalSignIn(platform, customerId);
    const bad = await portal.post('billing-details/update', { address: { country: 'Germany' } });
    expect(bad).toMatchObject({ status: 400, body: { code: 'VALIDATION', context: { constraints: { 'address.country': expect.anything() } } } });
    expect(await portal.post('billing-details/update', { tax: { taxability: 'EXEMPT' } })).toMatchObject({ status: 400 });

    const updated = await portal.ok('billing-details/update', {
      email: 'ada@example.org',
      address: { line1: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'DEU' },
      tax_registrations: [{ scheme: 'VAT', id: 'DE 123.456.789', country: 'DEU' }],
      preferred_locales: ['de-DE', 'en'],
    });
    expect(updated).toMatchObject({
      email: 'ada@example.org',
      address: { city: 'Berlin', country: 'DEU' },
      tax: { taxability: 'TAXABLE', registrations: [{ id: 'DE123456789' }] },
      configuration: { preferred_locales: ['de-DE', 'en'] },
    });
    const events = await platform.db.outboxEvent.findMany({ where: { accountId: platform.accountId, eventType: 'CUSTOMER_UPDATED' } });
    expect(events.some((event) => (event.data as any).customer?.email === 'ada@example.org')).toBe(true);

    await setPortalSettings({ billing_details_updates: false });
    expect(await portal.post('billing-details/update', { email: 'eve@example.org' })).toMatchObject({ status: 403, body: { context: { portal_setting: 'billing_details_updates' } } });
    expect((await portal.ok('billing-details/update', { preferred_locales: ['en'] })).configuration.preferred_locales).toEqual(['en']);
  });
});
