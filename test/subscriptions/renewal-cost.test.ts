import { WorkflowNotFoundError } from '@temporalio/client';
import { CHARGE_HEARTBEAT_TIMEOUT_MS } from '../../domain/charge-heartbeats';
import { invoiceCollectionWorkflowId, subscriptionWorkflowId } from '../../domain/workflow-ids';
import type { Platform } from '../support/platform';
import { DAY, MINUTE, SOFT, useSubscriptionPlatform, type SubscriptionSteps } from './fixtures';

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

/** What a subscription's run has done so far, from its history. */
async function commands(id: string): Promise<{ activities: string[]; heartbeatTimeouts: Record<string, number>; children: number; timers: number }> {
  const history = await s.client.workflow.getHandle(subscriptionWorkflowId(id)).fetchHistory();
  const events = history.events ?? [];
  const scheduled = events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes] : []));
  return {
    activities: scheduled.map((a) => a.activityType!.name!),
    heartbeatTimeouts: Object.fromEntries(scheduled.map((a) => [a.activityType!.name!, Number(a.heartbeatTimeout?.seconds ?? 0) * 1000])),
    children: events.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes).length,
    timers: events.filter((e) => e.timerStartedEventAttributes).length,
  };
}

async function paymentsOf(invoiceId: string) {
  return platform.db.payment.findMany({ where: { invoiceId }, select: { status: true, idempotencyKey: true } });
}

async function collectionExists(invoiceId: string): Promise<boolean> {
  try {
    await s.client.workflow.getHandle(invoiceCollectionWorkflowId(invoiceId)).describe();
    return true;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

describe('what a renewal costs (docs/subscriptions.md, "Design")', () => {
  it('a paid first invoice and a paid renewal: one activity each after the timer, no collection workflow, one charge each', async () => {
    const { customerId } = await s.payer();
    const priceId = await s.price(7_000, { value: 1, unit: 'WEEK' });
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1 }], starts_at: await s.soon() });
    await s.sleep(2 * MINUTE);
    await s.statusBecomes(created.id, 'ACTIVE');
    await s.sleep(7 * DAY);
    const invoices = await s.settled(created.id, 2);

    expect(invoices.map((i) => [i.billingReason, i.status])).toEqual([
      ['SUBSCRIPTION_CREATE', 'PAID'],
      ['SUBSCRIPTION_CYCLE', 'PAID'],
    ]);
    expect(await s.eventTypes(created.id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_ACTIVATED', 'SUBSCRIPTION_RENEWED']);
    const { activities, heartbeatTimeouts, children, timers } = await commands(created.id);
    expect(activities).toEqual(['loadSubscription', 'renewSubscriptionPeriod', 'renewSubscriptionPeriod']);
    // The charge heartbeats: a worker dying mid-renewal holds the subscription (and its Updates) seconds, not the 5-minute start-to-close.
    expect(heartbeatTimeouts).toEqual({ loadSubscription: 0, renewSubscriptionPeriod: CHARGE_HEARTBEAT_TIMEOUT_MS });
    expect(children).toBe(0);
    // To the start, to the renewal, and the one waiting for the next.
    expect(timers).toBe(3);
    for (const invoice of invoices) {
      expect(await paymentsOf(invoice.id)).toEqual([{ status: 'SUCCEEDED', idempotencyKey: `${invoice.id}/collection/0` }]);
      expect(await collectionExists(invoice.id)).toBe(false);
    }
    expect(await s.get(created.id)).toMatchObject({ status: 'ACTIVE', latest_invoice_id: invoices[1]!.id });
  });

  it('a declined renewal goes to its collection workflow, which finds the first attempt made and does not charge again', async () => {
    const { customerId } = await s.payer();
    const priceId = await s.price(7_000, { value: 1, unit: 'WEEK' });
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1 }], starts_at: await s.soon() });
    await s.sleep(2 * MINUTE);
    await s.statusBecomes(created.id, 'ACTIVE');
    const soft = await s.card(customerId, SOFT);
    await s.ok('subscriptions/update', { id: created.id, payment_instrument_id: soft });
    await s.sleep(7 * DAY);
    await s.statusBecomes(created.id, 'REDEMPTION');

    const renewal = (await s.invoices(created.id))[1]!;
    expect(renewal).toMatchObject({ status: 'DUNNING', billingReason: 'SUBSCRIPTION_CYCLE' });
    expect(await paymentsOf(renewal.id)).toEqual([{ status: 'DECLINED', idempotencyKey: `${renewal.id}/collection/0` }]);
    expect(await collectionExists(renewal.id)).toBe(true);
    const { activities, children } = await commands(created.id);
    expect(activities).toEqual(['loadSubscription', 'renewSubscriptionPeriod', 'saveSubscription', 'renewSubscriptionPeriod', 'saveSubscription']);
    expect(children).toBe(1);
  });
});
