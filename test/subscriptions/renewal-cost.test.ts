import { MockActivityEnvironment } from '@temporalio/testing';
import { WorkflowNotFoundError } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { createSubscriptionActivities } from '../../activities/subscription';
import { CHARGE_HEARTBEAT_TIMEOUT_MS } from '../../domain/charge-heartbeats';
import { billCycle } from '../../domain/subscriptions/billing';
import { paymentSettled } from '../../domain/subscriptions/payment-outcome';
import { nextDue } from '../../domain/subscriptions/schedule';
import type { SubscriptionState } from '../../domain/subscriptions/state';
import { invoiceCollectionWorkflowId, subscriptionWorkflowId } from '../../domain/workflow-ids';
import { attemptInvoiceCollection } from '../../services/invoices/collection';
import { loadSubscriptionState } from '../../services/subscriptions/load-state';
import type { RenewPeriodInput } from '../../services/subscriptions/renew-period';
import { saveSubscriptionStep } from '../../services/subscriptions/save-step';
import type { Platform } from '../support/platform';
import { DAY, MINUTE, SOFT, useSubscriptionPlatform, type SubscriptionSteps } from './fixtures';

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

/** The activity type a local activity's marker records (sdk-core's `LocalActivityMarkerData`). */
function localActivityType(marker: { markerName?: string | null; details?: Record<string, { payloads?: Parameters<typeof defaultPayloadConverter.fromPayload>[0][] | null }> | null }): string | null {
  if (marker.markerName !== 'core_local_activity') return null;
  return defaultPayloadConverter.fromPayload<{ activity_type: string }>(marker.details!.data!.payloads![0]!).activity_type;
}

/** What a subscription's run has done so far, from its history; a local activity is named with "(local)". */
async function commands(id: string): Promise<{ activities: string[]; heartbeatTimeouts: Record<string, number>; workflowTaskTimeoutMs: number; children: number; timers: number }> {
  const history = await s.client.workflow.getHandle(subscriptionWorkflowId(id)).fetchHistory();
  const events = history.events ?? [];
  const scheduled = events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes] : []));
  const started = events[0]!.workflowExecutionStartedEventAttributes!;
  return {
    activities: events.flatMap((e) => {
      if (e.activityTaskScheduledEventAttributes) return [e.activityTaskScheduledEventAttributes.activityType!.name!];
      const local = e.markerRecordedEventAttributes && localActivityType(e.markerRecordedEventAttributes);
      return local ? [`${local} (local)`] : [];
    }),
    heartbeatTimeouts: Object.fromEntries(scheduled.map((a) => [a.activityType!.name!, Number(a.heartbeatTimeout?.seconds ?? 0) * 1000])),
    workflowTaskTimeoutMs: Number(started.workflowTaskTimeout?.seconds ?? 0) * 1000,
    children: events.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes).length,
    timers: events.filter((e) => e.timerStartedEventAttributes).length,
  };
}

/**
 * The input the run handed the local renewSubscriptionPeriod of its `cycle`-th renewal, rebuilt
 * as the workflow builds it (a local activity's marker records its result, not its input): from
 * the state before, at the workflow time of the task that ran it, which is when that task started.
 */
async function renewalInput(id: string, before: SubscriptionState, cycle: number): Promise<RenewPeriodInput> {
  const history = await s.client.workflow.getHandle(subscriptionWorkflowId(id)).fetchHistory();
  const events = history.events ?? [];
  const markers = events.flatMap((e, index) => (e.markerRecordedEventAttributes && localActivityType(e.markerRecordedEventAttributes) === 'renewSubscriptionPeriod' ? [index] : []));
  const marker = markers[cycle - 1]!;
  const taskStarted = events.slice(0, marker).reverse().find((e) => e.workflowTaskStartedEventAttributes)!;
  const now = Number(taskStarted.eventTime!.seconds) * 1000 + Math.floor(taskStarted.eventTime!.nanos! / 1e6);
  const { step, invoice } = billCycle(before, nextDue(before)!.at, now);
  return { state: step.state, events: step.events, invoice, paid: paymentSettled(step.state, invoice.kind, true, now) };
}

/** What Temporal does when a worker dies after the activity's work committed: it runs it again. */
function renewAgain(input: RenewPeriodInput) {
  const activities = createSubscriptionActivities({ db: platform.db });
  return new MockActivityEnvironment().run(activities.renewSubscriptionPeriod, input);
}

/**
 * The transaction that last wrote the subscription's row and the invoice's (`xmin`: rows written
 * by one transaction share it), and the subscription's version.
 */
async function writers(subscriptionId: string, invoiceId: string) {
  const [subscription] = await platform.db.$queryRaw<Array<{ xmin: string; version: number }>>`SELECT xmin::text AS xmin, version FROM subscriptions WHERE id = ${subscriptionId}`;
  const [invoice] = await platform.db.$queryRaw<Array<{ xmin: string; status: string }>>`SELECT xmin::text AS xmin, status FROM invoices WHERE id = ${invoiceId}`;
  return { subscription: subscription!, invoice: invoice! };
}

/** A weekly subscription started a minute ahead, its first invoice paid (ACTIVE). */
async function activeWeekly() {
  const { customerId } = await s.payer();
  const priceId = await s.price(7_000, { value: 1, unit: 'WEEK' });
  const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1 }], starts_at: await s.soon() });
  await s.sleep(2 * MINUTE);
  await s.statusBecomes(created.id, 'ACTIVE');
  return { customerId, created };
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
    const { created } = await activeWeekly();
    await s.sleep(7 * DAY);
    const invoices = await s.settled(created.id, 2);

    expect(invoices.map((i) => [i.billingReason, i.status])).toEqual([
      ['SUBSCRIPTION_CREATE', 'PAID'],
      ['SUBSCRIPTION_CYCLE', 'PAID'],
    ]);
    expect(await s.eventTypes(created.id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_ACTIVATED', 'SUBSCRIPTION_RENEWED']);
    const { activities, heartbeatTimeouts, workflowTaskTimeoutMs, children, timers } = await commands(created.id);
    // Local: each renewal runs in the workflow task its timer woke, with no task of its own.
    expect(activities).toEqual(['loadSubscription', 'renewSubscriptionPeriod (local)', 'renewSubscriptionPeriod (local)']);
    expect(heartbeatTimeouts).toEqual({ loadSubscription: 0 });
    // A worker dying mid-renewal holds the subscription (and its Updates) until its workflow task
    // times out, no longer than a charge heartbeat would, not the 5-minute start-to-close.
    expect(workflowTaskTimeoutMs).toBeGreaterThan(0);
    expect(workflowTaskTimeoutMs).toBeLessThanOrEqual(CHARGE_HEARTBEAT_TIMEOUT_MS);
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
    const { customerId, created } = await activeWeekly();
    const soft = await s.card(customerId, SOFT);
    await s.ok('subscriptions/update', { id: created.id, payment_instrument_id: soft });
    await s.sleep(7 * DAY);
    await s.statusBecomes(created.id, 'REDEMPTION');

    const renewal = (await s.invoices(created.id))[1]!;
    expect(renewal).toMatchObject({ status: 'DUNNING', billingReason: 'SUBSCRIPTION_CYCLE' });
    expect(await paymentsOf(renewal.id)).toEqual([{ status: 'DECLINED', idempotencyKey: `${renewal.id}/collection/0` }]);
    expect(await collectionExists(renewal.id)).toBe(true);
    const { activities, children } = await commands(created.id);
    expect(activities).toEqual(['loadSubscription', 'renewSubscriptionPeriod (local)', 'saveSubscription', 'renewSubscriptionPeriod (local)', 'saveSubscription']);
    expect(children).toBe(1);
  });

  it('a paid renewal saves its paid step in the settlement\'s transaction, and the activity run again changes nothing', async () => {
    const { created } = await activeWeekly();
    const before = (await loadSubscriptionState({ db: platform.db }, created.id))!;
    await s.sleep(7 * DAY);
    const renewal = (await s.settled(created.id, 2))[1]!;

    const written = await writers(created.id, renewal.id);
    expect(written.invoice.status).toBe('PAID');
    // One transaction settled the invoice and renewed the subscription (each with its event).
    expect(written.subscription.xmin).toBe(written.invoice.xmin);

    const input = await renewalInput(created.id, before, 2);
    // Rebuilt exactly (its workflow time included): the run holds the paid step it handed over.
    expect(await s.state(created.id)).toEqual({ ...input.paid!.state, latestInvoiceId: renewal.id });
    expect(written.subscription.version).toBe(input.paid!.state.version);
    expect(await renewAgain(input)).toEqual({ invoice: { id: renewal.id, status: 'PAID' } });
    expect(await writers(created.id, renewal.id)).toEqual(written);
    expect(await paymentsOf(renewal.id)).toEqual([{ status: 'SUCCEEDED', idempotencyKey: `${renewal.id}/collection/0` }]);
    expect(await s.eventTypes(created.id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_ACTIVATED', 'SUBSCRIPTION_RENEWED']);
  });

  it('the same renewal decided again at a later workflow time (its task retried after the worker died) finds the invoice the first made: one invoice, one charge', async () => {
    const { created } = await activeWeekly();
    const state = (await loadSubscriptionState({ db: platform.db }, created.id))!;
    const at = nextDue(state)!.at;
    const first = billCycle(state, at, at);
    const issued = (await saveSubscriptionStep({ db: platform.db }, { state: first.step.state, events: first.step.events, invoice: first.invoice })).invoice!;
    expect(await attemptInvoiceCollection({ db: platform.db, now: () => new Date(at) }, { invoiceId: issued.id, attempt: 0, retriesLeft: 4 })).toMatchObject({ status: 'PAID' });

    // The local activity's work committed but its result never reached the server: the retried
    // task decides the same step (same version) at its own, later, workflow time.
    const later = at + 10_000;
    const again = billCycle(state, at, later);
    expect(again.step.state.version).toBe(first.step.state.version);
    const input: RenewPeriodInput = { state: again.step.state, events: again.step.events, invoice: again.invoice, paid: paymentSettled(again.step.state, again.invoice.kind, true, later) };
    expect(await renewAgain(input)).toEqual({ invoice: { id: issued.id, status: 'PAID' } });
    expect((await s.invoices(created.id)).map((i) => i.id)).toEqual([expect.any(String), issued.id]);
    expect(await paymentsOf(issued.id)).toEqual([{ status: 'SUCCEEDED', idempotencyKey: `${issued.id}/collection/0` }]);
  });

  it('a renewal run again after its charge settled without the paid step (an older run that died) saves the step once', async () => {
    const { created } = await activeWeekly();

    // The cycle the workflow will bill, built as it builds it, at its due time (which the test
    // server's clock does not reach: the workflow itself stays on its timer).
    const state = (await loadSubscriptionState({ db: platform.db }, created.id))!;
    const at = nextDue(state)!.at;
    const { step, invoice } = billCycle(state, at, at);
    const paid = paymentSettled(step.state, invoice.kind, true, at);
    const input: RenewPeriodInput = { state: step.state, events: step.events, invoice, paid };
    // What a run from before the paid step joined the settlement left when it died: the invoice
    // issued and charged, its settlement committed, the subscription not yet renewed.
    const issued = (await saveSubscriptionStep({ db: platform.db }, { state: step.state, events: step.events, invoice })).invoice!;
    const deps = { db: platform.db, now: () => new Date(at) };
    expect(await attemptInvoiceCollection(deps, { invoiceId: issued.id, attempt: 0, retriesLeft: 4 })).toMatchObject({ status: 'PAID' });
    expect(await s.eventTypes(created.id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_ACTIVATED']);

    expect(await renewAgain(input)).toEqual({ invoice: { id: issued.id, status: 'PAID' } });
    const written = await writers(created.id, issued.id);
    expect(written.subscription.version).toBe(paid.state.version);
    expect(written.subscription.xmin).not.toBe(written.invoice.xmin);
    expect(await renewAgain(input)).toEqual({ invoice: { id: issued.id, status: 'PAID' } });
    expect(await writers(created.id, issued.id)).toEqual(written);
    expect(await s.eventTypes(created.id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_ACTIVATED', 'SUBSCRIPTION_RENEWED']);
    expect(await paymentsOf(issued.id)).toEqual([{ status: 'SUCCEEDED', idempotencyKey: `${issued.id}/collection/0` }]);
    expect(await s.get(created.id)).toMatchObject({ status: 'ACTIVE', latest_invoice_id: issued.id });
  });
});
