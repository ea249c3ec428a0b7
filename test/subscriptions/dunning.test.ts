import { invoiceCollectionWorkflowId, subscriptionWorkflowId } from '../../domain/workflow-ids';
import type { Platform } from '../support/platform';
import { DAY, GOOD, HARD, HOUR, MINUTE, SOFT, useSubscriptionPlatform, type SubscriptionSteps } from './fixtures';

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

/** An ACTIVE weekly subscription whose renewals will be charged on a soft-declining card. */
async function renewingOnFailingCard(settings?: object) {
  const { customerId } = await s.payer();
  const priceId = await s.price(7_000, { value: 1, unit: 'WEEK' });
  const created = await s.ok('subscriptions/create', {
    customer_id: customerId,
    line_items: [{ product_price_id: priceId, quantity: 1 }],
    starts_at: await s.soon(),
    ...(settings ? { settings } : {}),
  });
  await s.sleep(2 * MINUTE);
  await s.statusBecomes(created.id, 'ACTIVE');
  const soft = await s.card(customerId, SOFT);
  await s.ok('subscriptions/update', { id: created.id, payment_instrument_id: soft });
  await s.sleep(7 * DAY);
  await s.statusBecomes(created.id, 'REDEMPTION');
  return { customerId, id: created.id, soft };
}

describe('failed payments', () => {
  it('a failed renewal enters REDEMPTION with the invoice in dunning; a retry on the fixed card returns it to ACTIVE', async () => {
    const { customerId, id, soft } = await renewingOnFailingCard();
    const renewal = (await s.invoices(id))[1]!;
    expect(renewal).toMatchObject({ status: 'DUNNING', billingReason: 'SUBSCRIPTION_CYCLE', paymentInstrumentId: soft });
    const redemption = (await s.events(id)).find((e) => e.eventType === 'SUBSCRIPTION_REDEMPTION_STARTED')!;
    expect((redemption.data as { subscription: object }).subscription).toMatchObject({ status: 'REDEMPTION', latest_invoice_id: renewal.id });

    await s.setDefaultInstrument(customerId, await s.card(customerId, GOOD));
    await s.ok('payment-instruments/revoke', { id: soft });
    await s.sleep(DAY + HOUR);
    await s.statusBecomes(id, 'ACTIVE');
    expect((await s.invoices(id))[1]).toMatchObject({ status: 'PAID' });
    expect(await s.eventTypes(id)).toEqual([
      'SUBSCRIPTION_CREATED',
      'SUBSCRIPTION_ACTIVATED',
      'SUBSCRIPTION_UPDATED',
      'SUBSCRIPTION_REDEMPTION_STARTED',
      'SUBSCRIPTION_ACTIVATED',
    ]);
    // Billing goes on from the anchor: the next renewal is a week after the failed one.
    await s.sleep(6 * DAY);
    await s.settled(id, 3);
  });

  it('retries exhausted: UNPAID, then CANCELLED with reason DUNNING_EXHAUSTED', async () => {
    const { id } = await renewingOnFailingCard();
    await s.sleep(7 * DAY + HOUR);
    await s.statusBecomes(id, 'CANCELLED');
    expect((await s.invoices(id))[1]).toMatchObject({ status: 'UNPAID' });
    expect((await s.eventTypes(id)).slice(-3)).toEqual(['SUBSCRIPTION_REDEMPTION_STARTED', 'SUBSCRIPTION_UNPAID', 'SUBSCRIPTION_CANCELLED']);
    const unpaid = (await s.events(id)).find((e) => e.eventType === 'SUBSCRIPTION_UNPAID')!;
    expect((unpaid.data as { subscription: { status: string } }).subscription.status).toBe('UNPAID');
    expect(await s.get(id)).toMatchObject({ status: 'CANCELLED', cancellation_info: { reason: 'DUNNING_EXHAUSTED', mode: 'IMMEDIATELY' } });
    await s.sleep(14 * DAY);
    expect(await s.invoices(id)).toHaveLength(2);
  });

  it('with on_dunning_exhausted REMAIN_UNPAID and its own retry schedule it stays UNPAID, bills no more, and can still be cancelled', async () => {
    const { id } = await renewingOnFailingCard({ on_dunning_exhausted: 'REMAIN_UNPAID', dunning_retry_schedule_days: [2] });
    await s.sleep(2 * DAY + HOUR);
    await s.statusBecomes(id, 'UNPAID');
    const unpaid = await s.get(id);
    expect(unpaid.next_billing_at).toBeUndefined();
    expect(unpaid.settings).toEqual({ on_dunning_exhausted: 'REMAIN_UNPAID', dunning_retry_schedule_days: [2] });
    expect(await s.refused('subscriptions/update', { id, description: 'x' })).toMatchObject({ status: 422, code: 'INCOMPATIBLE_STATUS' });
    await s.sleep(14 * DAY);
    expect(await s.invoices(id)).toHaveLength(2);
    expect(await s.ok('subscriptions/cancel', { id, mode: 'IMMEDIATELY' })).toMatchObject({ status: 'CANCELLED', cancellation_info: { reason: 'CANCELLATION_REQUESTED' } });
  });

  it('REMAIN_UNPAID: paying the unpaid invoice by hand makes it ACTIVE again, and billing goes on from the anchor', async () => {
    const { customerId, id } = await renewingOnFailingCard({ on_dunning_exhausted: 'REMAIN_UNPAID', dunning_retry_schedule_days: [2] });
    await s.sleep(2 * DAY + HOUR);
    await s.statusBecomes(id, 'UNPAID');
    const renewal = (await s.invoices(id))[1]!;
    expect(renewal.status).toBe('UNPAID');
    const before = await s.get(id);

    const paid = await s.ok('invoices/pay', { id: renewal.id, payment_instrument_id: await s.card(customerId, GOOD) });
    expect(paid.invoice.status).toBe('PAID');

    await s.statusBecomes(id, 'ACTIVE');
    expect((await s.eventTypes(id)).slice(-3)).toEqual(['SUBSCRIPTION_REDEMPTION_STARTED', 'SUBSCRIPTION_UNPAID', 'SUBSCRIPTION_ACTIVATED']);
    // The paid week is still running: the next renewal stays where the anchor puts it.
    const active = await s.get(id);
    expect(active.next_billing_at).toBe(before.line_items[0].period.end_at);
    await s.sleep(5 * DAY);
    const third = await s.settled(id, 3);
    expect(third[2]).toMatchObject({ billingReason: 'SUBSCRIPTION_CYCLE' });
  });

  it('REMAIN_UNPAID: a debt settled without the word reaching the workflow (a crash after the commit) is found by the daily look', async () => {
    const { id } = await renewingOnFailingCard({ on_dunning_exhausted: 'REMAIN_UNPAID', dunning_retry_schedule_days: [1] });
    await s.sleep(DAY + HOUR);
    await s.statusBecomes(id, 'UNPAID');
    const renewal = (await s.invoices(id))[1]!;
    // As invoices/void commits it, without its signal.
    await platform.db.invoice.update({ where: { id: renewal.id }, data: { status: 'VOIDED', voidedAt: new Date(), amountDue: 0 } });

    await s.sleep(DAY + HOUR);
    await s.statusBecomes(id, 'ACTIVE');
    // The voided week is over: billing resumes at the next boundary from the anchor, nothing billed for the unpaid days.
    const active = await s.get(id);
    const next = Date.parse(active.next_billing_at);
    expect(next).toBeGreaterThan(await s.now());
    expect((next - Date.parse(active.anchor_at)) % (7 * DAY)).toBe(0);
    expect(await s.invoices(id)).toHaveLength(2);
  });

  // Cancelled rather than terminated: the time-skipping server does not tell a parent that its child was terminated.
  it('an invoice still owed when its collection is cancelled counts as unpaid: the subscription is cancelled, its workflow completes', async () => {
    const { id } = await renewingOnFailingCard();
    const renewal = (await s.invoices(id))[1]!;
    await s.client.workflow.getHandle(invoiceCollectionWorkflowId(renewal.id)).cancel();

    await s.statusBecomes(id, 'CANCELLED');
    expect(await s.get(id)).toMatchObject({ cancellation_info: { reason: 'DUNNING_EXHAUSTED' } });
    expect(await s.client.workflow.getHandle(subscriptionWorkflowId(id)).result()).toEqual({ status: 'CANCELLED' });
    expect((await s.invoices(id))[1]).toMatchObject({ status: 'DUNNING' });
  });

  it('a first payment declined for good goes from PENDING to UNPAID and is cancelled', async () => {
    const { customerId } = await s.payer(HARD);
    const priceId = await s.price(1_000);
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1 }], starts_at: await s.soon() });
    await s.sleep(2 * MINUTE);
    await s.statusBecomes(created.id, 'CANCELLED');
    expect(await s.eventTypes(created.id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_UNPAID', 'SUBSCRIPTION_CANCELLED']);
    expect((await s.invoices(created.id))[0]).toMatchObject({ status: 'OPEN', billingReason: 'SUBSCRIPTION_CREATE' });
  });
});
