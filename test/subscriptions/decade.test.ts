import { subscriptionWorkflowId } from '../../domain/workflow-ids';
import { DAY, isoDay, useSubscriptionPlatform, type SubscriptionSteps } from './fixtures';

let s: SubscriptionSteps;

useSubscriptionPlatform((_platform, steps) => {
  s = steps;
});

/** Events in one run's history stay below this however long the subscription lives. */
const HISTORY_BOUND = 1_000;

describe('a decade of monthly cycles', () => {
  it('bills 121 monthly invoices over ten years while each run of the workflow keeps a bounded history', async () => {
    const { customerId } = await s.payer();
    const priceId = await s.price(1_000);
    // A 100 % coupon: every invoice is issued and finalized as PAID, so the test spends its time
    // on the cycles and hand-overs, not on card charges (those are covered by cycles.test.ts).
    const coupon = await s.ok('coupons/create', { code: 'FREEFOREVER', calculation_type: 'PERCENTAGE', calculation_value: 100 });
    const startsAt = await s.soon();
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: priceId, quantity: 1 }],
      starts_at: startsAt,
      discounts: [{ coupon_id: coupon.id }],
    });
    const handle = s.client.workflow.getHandle(subscriptionWorkflowId(created.id));
    const firstRunId = (await handle.describe()).runId;

    const historyLengths: number[] = [];
    for (let year = 1; year <= 10; year++) {
      await s.sleep(Date.parse(startsAt) + year * 366 * DAY - (await s.now()));
      historyLengths.push((await handle.fetchHistory()).events?.length ?? 0);
    }
    const invoices = await s.settled(created.id, 121);
    expect(invoices.every((invoice) => invoice.status === 'PAID' && invoice.totalAmount === 0)).toBe(true);
    const anchorDay = new Date(startsAt).getUTCDate();
    for (const [k, invoice] of invoices.entries()) {
      const expected = new Date(startsAt);
      expected.setUTCDate(1);
      expected.setUTCMonth(expected.getUTCMonth() + k);
      const last = new Date(Date.UTC(expected.getUTCFullYear(), expected.getUTCMonth() + 1, 0)).getUTCDate();
      expected.setUTCDate(Math.min(anchorDay, last));
      expect(isoDay(invoice.createdAt)).toBe(isoDay(expected));
    }

    const description = await handle.describe();
    expect(description.runId).not.toBe(firstRunId);
    expect(description.status.name).toBe('RUNNING');
    expect(Math.max(...historyLengths)).toBeLessThan(HISTORY_BOUND);
    const state = await s.state(created.id);
    expect(state).toMatchObject({ status: 'ACTIVE', cycleCount: 121 });
    expect(await s.get(created.id)).toMatchObject({ status: 'ACTIVE', latest_invoice_id: invoices[120]!.id });
    expect((await s.eventTypes(created.id)).filter((t) => t === 'SUBSCRIPTION_RENEWED')).toHaveLength(120);
  }, 600_000);
});
