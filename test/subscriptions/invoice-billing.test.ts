import { eventTypesOf } from '../invoices-payments/fixtures';
import type { Platform } from '../support/platform';
import { DAY, HOUR, MINUTE, useSubscriptionPlatform, waitFor, type SubscriptionSteps } from './fixtures';

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

/**
 * A weekly subscription of a customer without any payment instrument, starting a minute from
 * now; the first invoice has been sent once this returns.
 */
async function billedByInvoice(settings: object) {
  const customerId = await s.customer();
  const priceId = await s.price(7_000, { value: 1, unit: 'WEEK' });
  const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1 }], starts_at: await s.soon(), settings });
  await s.sleep(2 * MINUTE);
  await s.statusBecomes(created.id, 'PENDING');
  const [first] = await waitFor('the first invoice', async () => {
    const list = await s.invoices(created.id);
    return list.length === 1 && list[0]!.status === 'OPEN' ? list : undefined;
  });
  return { customerId, created, first: first! };
}

/** The invoice of the subscription with this index, once it exists and has been issued. */
async function issued(id: string, index: number) {
  return waitFor(`invoice ${index} of ${id}`, async () => {
    const invoice = (await s.invoices(id))[index];
    return invoice && invoice.status !== 'DRAFT' ? invoice : undefined;
  });
}

describe('subscriptions billed by invoice (no payment instrument)', () => {
  it('sends each invoice OPEN with a due date and charges nothing; invoices/pay activates it, and the next cycle is sent the same way', async () => {
    const { customerId, created, first } = await billedByInvoice({ days_until_due: 3 });
    expect(created).toMatchObject({ status: 'CREATED', collection_method: 'SEND_INVOICE', settings: { on_dunning_exhausted: 'CANCEL', days_until_due: 3 } });
    expect(created.payment_instrument_id).toBeUndefined();
    expect(first).toMatchObject({ collectionMethod: 'SEND_INVOICE', billingReason: 'SUBSCRIPTION_CREATE', totalAmount: 7_000, paymentInstrumentId: null });
    expect(first.dueAt!.getTime() - first.finalizedAt!.getTime()).toBe(3 * DAY);

    await s.sleep(DAY);
    expect(await s.get(created.id)).toMatchObject({ status: 'PENDING', latest_invoice_id: first.id });
    expect(await platform.db.payment.count({ where: { invoiceId: first.id } })).toBe(0);

    const card = await s.card(customerId);
    expect((await s.ok('invoices/pay', { id: first.id, payment_instrument_id: card })).invoice.status).toBe('PAID');
    await s.statusBecomes(created.id, 'ACTIVE');
    // The collection ended with the payment: its due date passing changes nothing.
    await s.sleep(3 * DAY);
    expect((await s.invoices(created.id)).map((invoice) => invoice.status)).toEqual(['PAID']);

    await s.sleep(3 * DAY + HOUR);
    const renewal = await issued(created.id, 1);
    expect(renewal).toMatchObject({ status: 'OPEN', collectionMethod: 'SEND_INVOICE', billingReason: 'SUBSCRIPTION_CYCLE', totalAmount: 7_000 });
    expect(renewal.dueAt!.getTime() - renewal.finalizedAt!.getTime()).toBe(3 * DAY);
    expect((await s.get(created.id)).status).toBe('ACTIVE');
    await s.ok('invoices/pay', { id: renewal.id, payment_instrument_id: card });
    await waitFor('the renewal to be announced', async () => (await s.eventTypes(created.id)).includes('SUBSCRIPTION_RENEWED'));
    expect(await s.eventTypes(created.id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_ACTIVATED', 'SUBSCRIPTION_RENEWED']);
    expect(await eventTypesOf(platform, renewal.id)).toEqual(['INVOICE_CREATED', 'INVOICE_FINALIZED', 'INVOICE_PAID']);
  });

  it('the default term is 30 days', async () => {
    const { created, first } = await billedByInvoice({});
    expect(created.settings).toEqual({ on_dunning_exhausted: 'CANCEL' });
    expect(first.dueAt!.getTime() - first.finalizedAt!.getTime()).toBe(30 * DAY);
  });

  it('not paid by its due date: the invoice enters dunning and the subscription REDEMPTION; paid in the grace, it is ACTIVE', async () => {
    const { customerId, created, first } = await billedByInvoice({ days_until_due: 2, dunning_retry_schedule_days: [3] });
    await s.sleep(2 * DAY + HOUR);
    await s.statusBecomes(created.id, 'REDEMPTION');
    expect((await s.invoices(created.id))[0]).toMatchObject({ status: 'DUNNING' });
    expect(await eventTypesOf(platform, first.id)).toEqual(['INVOICE_CREATED', 'INVOICE_FINALIZED', 'INVOICE_DUNNING_STARTED']);

    await s.ok('invoices/pay', { id: first.id, payment_instrument_id: await s.card(customerId) });
    await s.statusBecomes(created.id, 'ACTIVE');
    expect(await s.eventTypes(created.id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_REDEMPTION_STARTED', 'SUBSCRIPTION_ACTIVATED']);
  });

  it('still unpaid when the grace runs out: the invoice is UNPAID, the subscription UNPAID then CANCELLED', async () => {
    const { created, first } = await billedByInvoice({ days_until_due: 2, dunning_retry_schedule_days: [1, 3] });
    await s.sleep(2 * DAY + HOUR);
    await s.statusBecomes(created.id, 'REDEMPTION');
    // The grace is the schedule's last offset from the due date: nothing is charged on the way.
    await s.sleep(2 * DAY);
    expect((await s.get(created.id)).status).toBe('REDEMPTION');
    await s.sleep(DAY);
    await s.statusBecomes(created.id, 'CANCELLED');
    expect(await s.get(created.id)).toMatchObject({ cancellation_info: { reason: 'DUNNING_EXHAUSTED' } });
    expect((await s.invoices(created.id))[0]).toMatchObject({ status: 'UNPAID' });
    expect(await platform.db.payment.count({ where: { invoiceId: first.id } })).toBe(0);
    expect(await eventTypesOf(platform, first.id)).toEqual(['INVOICE_CREATED', 'INVOICE_FINALIZED', 'INVOICE_DUNNING_STARTED', 'INVOICE_UNPAID']);
    expect(await s.eventTypes(created.id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_REDEMPTION_STARTED', 'SUBSCRIPTION_UNPAID', 'SUBSCRIPTION_CANCELLED']);
  });

  it('REMAIN_UNPAID: stays UNPAID until the invoice is paid late, then ACTIVE', async () => {
    const { customerId, created, first } = await billedByInvoice({ days_until_due: 1, dunning_retry_schedule_days: [1], on_dunning_exhausted: 'REMAIN_UNPAID' });
    await s.sleep(2 * DAY + HOUR);
    await s.statusBecomes(created.id, 'UNPAID');
    expect((await s.invoices(created.id))[0]).toMatchObject({ status: 'UNPAID' });

    await s.ok('invoices/pay', { id: first.id, payment_instrument_id: await s.card(customerId) });
    await s.statusBecomes(created.id, 'ACTIVE');
    expect((await s.eventTypes(created.id)).slice(-2)).toEqual(['SUBSCRIPTION_UNPAID', 'SUBSCRIPTION_ACTIVATED']);
  });

  it('bills by invoice a customer whose default instrument was revoked or is no longer ACTIVE', async () => {
    const priceId = await s.price(1_000);
    const create = async (customerId: string) =>
      s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1 }], starts_at: await s.soon() });

    const revoked = await s.payer();
    await s.ok('payment-instruments/revoke', { id: revoked.instrumentId });
    const afterRevoke = await create(revoked.customerId);
    expect(afterRevoke).toMatchObject({ collection_method: 'SEND_INVOICE' });
    expect(afterRevoke).not.toHaveProperty('payment_instrument_id');

    // A default that stopped being ACTIVE before revoking and expiring cleared defaults.
    const stale = await s.payer();
    await platform.db.paymentInstrument.update({ where: { id: stale.instrumentId }, data: { status: 'EXPIRED', expiredAt: new Date() } });
    const afterExpiry = await create(stale.customerId);
    expect(afterExpiry).toMatchObject({ collection_method: 'SEND_INVOICE' });
    expect(afterExpiry).not.toHaveProperty('payment_instrument_id');

    const active = await s.payer();
    expect(await create(active.customerId)).toMatchObject({ collection_method: 'CHARGE_AUTOMATICALLY', payment_instrument_id: active.instrumentId });
  });

  it('an instrument is still required for automatic collection and a PAID trial', async () => {
    const customerId = await s.customer();
    const priceId = await s.price(1_000);
    const create = (body: object) => s.refused('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1 }], ...body });

    expect(await create({ collection_method: 'CHARGE_AUTOMATICALLY' })).toMatchObject({
      status: 422,
      code: 'PAYMENT_INSTRUMENT_REQUIRED',
      context: { field: 'payment_instrument_id', collection_method: 'CHARGE_AUTOMATICALLY' },
    });
    expect(await create({ trial: { type: 'PAID', amount: 100, period_config: { value: 7, unit: 'DAY' } } })).toMatchObject({ status: 422, code: 'PAYMENT_INSTRUMENT_REQUIRED' });
    expect(await create({ collection_method: 'SEND_INVOICE', trial: { type: 'PAID', amount: 100 } })).toMatchObject({
      status: 400,
      code: 'VALIDATION',
      context: { constraints: { collection_method: { type: 'INVALID' } } },
    });
    const card = await s.card(customerId);
    expect(await create({ payment_instrument_id: card, settings: { days_until_due: 10 } })).toMatchObject({
      status: 400,
      code: 'VALIDATION',
      context: { constraints: { 'settings.days_until_due': { type: 'INVALID' } } },
    });
    expect(await create({ collection_method: 'SEND_INVOICE', settings: { days_until_due: 0 } })).toMatchObject({ status: 400, code: 'VALIDATION' });
    expect(await platform.db.subscription.count({ where: { customerId } })).toBe(0);

    // Named or the customer's default, an instrument means automatic collection, unless SEND_INVOICE is asked for.
    expect(await s.ok('subscriptions/create', { customer_id: customerId, payment_instrument_id: card, line_items: [{ product_price_id: priceId, quantity: 1 }], starts_at: await s.soon() })).toMatchObject({
      collection_method: 'CHARGE_AUTOMATICALLY',
      payment_instrument_id: card,
    });
    expect(
      await s.ok('subscriptions/create', { customer_id: customerId, collection_method: 'SEND_INVOICE', payment_instrument_id: card, line_items: [{ product_price_id: priceId, quantity: 1 }], starts_at: await s.soon() }),
    ).toMatchObject({ collection_method: 'SEND_INVOICE', payment_instrument_id: card });
  });
});
