import { Client } from '@temporalio/client';
import { subscriptionWorkflowId } from '../../domain/workflow-ids';
import type { SubscriptionState } from '../../domain/subscriptions/state';
import { subscriptionStateQuery } from '../../workflows/subscription-messages';
import { usePlatform, type Platform } from '../support/platform';
import { merchant, waitFor } from '../invoices-payments/fixtures';

export { waitFor };

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const GOOD = '4242424242424242';
export const SOFT = '4000000000009995';
export const HARD = '4000000000000002';

/** Merchant steps for subscriptions over the real API. */
export function subscriptions(platform: Platform) {
  const m = merchant(platform);
  const client = new Client({ connection: platform.env.connection });

  async function card(customerId: string, number = GOOD): Promise<string> {
    const year = new Date().getUTCFullYear() + 20;
    return (await m.ok('payment-instruments/tokenize', { customer_id: customerId, card: { number, exp_month: 12, exp_year: year } })).id;
  }

  /** A customer with a default card. */
  async function payer(number = GOOD): Promise<{ customerId: string; instrumentId: string }> {
    const customerId = await m.customer();
    const instrumentId = await card(customerId, number);
    await m.setDefaultInstrument(customerId, instrumentId);
    return { customerId, instrumentId };
  }

  async function price(amount: number, period: { value: number; unit: string } | null = { value: 1, unit: 'MONTH' }, name = 'Pro plan'): Promise<string> {
    const product = await m.ok('products/create', { name });
    return (
      await m.ok('product-prices/create', {
        product_id: product.id,
        currency: 'EUR',
        amount,
        billing_type: period ? 'RECURRING' : 'ONE_TIME',
        ...(period ? { billing_period_config: period } : {}),
      })
    ).id;
  }

  /** The test server's clock, which runs ahead of the wall clock once a test has skipped time. */
  async function now(): Promise<number> {
    return platform.env.currentTimeMs();
  }

  /** A start one minute ahead on the test server's clock, so every time the subscription holds is workflow time. */
  async function soon(): Promise<string> {
    return new Date((await now()) + MINUTE).toISOString();
  }

  /**
   * Moves the test server's clock, in steps of at most a month: one long skip is one long
   * gRPC call, which the server's keepalive policy may cut while the workflows work through it.
   */
  async function sleep(ms: number): Promise<void> {
    for (let left = ms; left > 0; left -= 31 * DAY) await platform.env.sleep(Math.min(left, 31 * DAY));
  }

  /** The error body of a refused call. */
  async function refused(path: string, body: unknown, options?: Parameters<Platform['call']>[2]) {
    const res = await platform.call(`/v2/${path}`, body, options);
    if (res.status === 200) throw new Error(`${path} was accepted: ${JSON.stringify(res.body)}`);
    return { status: res.status, ...res.body };
  }

  /** What the workflow holds now (a query: no time passes). */
  async function state(id: string): Promise<SubscriptionState> {
    return client.workflow.getHandle(subscriptionWorkflowId(id)).query(subscriptionStateQuery);
  }

  async function get(id: string) {
    return m.ok('subscriptions/get', { id });
  }

  async function statusBecomes(id: string, status: string) {
    return waitFor(`subscription ${id} to be ${status}`, async () => {
      const row = await platform.db.subscription.findUniqueOrThrow({ where: { id } });
      return row.status === status ? row : undefined;
    });
  }

  async function invoices(id: string) {
    return platform.db.invoice.findMany({ where: { subscriptionId: id }, orderBy: { id: 'asc' }, include: { lineItems: { orderBy: { position: 'asc' } } } });
  }

  async function events(id: string) {
    const rows = await platform.db.outboxEvent.findMany({ where: { eventType: { startsWith: 'SUBSCRIPTION_' } }, orderBy: { id: 'asc' } });
    return rows.filter((row) => (row.data as { subscription?: { id: string } }).subscription?.id === id);
  }

  async function eventTypes(id: string): Promise<string[]> {
    return (await events(id)).map((e) => e.eventType);
  }

  /** Waits until the workflow is idle on a timer: every issued invoice settled, nothing in flight. */
  async function settled(id: string, count: number) {
    return waitFor(`${count} settled invoices of ${id}`, async () => {
      const list = await invoices(id);
      return list.length === count && list.every((invoice) => invoice.status !== 'OPEN' && invoice.status !== 'DRAFT') ? list : undefined;
    }, 60_000);
  }

  return { ...m, client, card, payer, price, now, soon, sleep, refused, state, get, statusBecomes, invoices, events, eventTypes, settled };
}

export const isoDay = (at: Date | string) => (typeof at === 'string' ? at : at.toISOString()).slice(0, 10);

export type SubscriptionSteps = ReturnType<typeof subscriptions>;

/**
 * A suite's platform, started before its tests and stopped after them: `ready` hands the
 * platform and the subscription steps on it to the suite's own variables.
 */
export function useSubscriptionPlatform(ready: (platform: Platform, steps: SubscriptionSteps) => void): void {
  const platform = usePlatform();
  beforeAll(() => ready(platform, subscriptions(platform)));
}
