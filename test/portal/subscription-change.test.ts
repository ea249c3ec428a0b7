import type { Platform } from '../support/platform';
import { useSubscriptionPlatform, type SubscriptionSteps } from '../subscriptions/fixtures';
import { portalSignIn } from './portal-client';

/**
 * docs/portal.md: a line change previewed, then made. Alone in its file: the preview prorates at
 * the API's clock, which only agrees with the time-skipping server's before any test skips time.
 */
let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

async function setPortalSettings(settings: Record<string, string | boolean | string[]>): Promise<void> {
  await platform.db.account.update({ where: { id: platform.accountId }, data: { portalSettings: settings } });
}

describe('subscriptions/change', () => {
  it('changes quantity and switches between listed prices only as allowed, previewing the proration first', async () => {
    const cheap = await s.price(1_000, { value: 1, unit: 'MONTH' }, 'Basic');
    const dear = await s.price(3_000, { value: 1, unit: 'MONTH' }, 'Pro');
    const unlisted = await s.price(9_000, { value: 1, unit: 'MONTH' }, 'Enterprise');
    const { customerId } = await s.payer();
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: cheap, quantity: 1 }] });
    const { id } = created;
    const lineId: string = created.line_items[0].id;
    await s.statusBecomes(id, 'ACTIVE');
    const portal = await portalSignIn(platform, customerId);

    expect(await portal.post('subscriptions/preview', { id, change: { line_item_id: lineId, quantity: 2 } })).toMatchObject({
      status: 403,
      body: { context: { portal_setting: 'quantity_changes' } },
    });
    await setPortalSettings({ quantity_changes: true, switchable_price_ids: [cheap, dear] });
    const me = await portal.ok('session/me');
    expect(me.switchable_prices.map((price: { id: string; product_name: string }) => [price.id, price.product_name])).toEqual([
      [cheap, 'Basic'],
      [dear, 'Pro'],
    ]);
    expect(await portal.post('subscriptions/change', { id, line_item_id: lineId, product_price_id: unlisted })).toMatchObject({
      status: 403,
      body: { context: { portal_setting: 'switchable_price_ids' } },
    });

    const preview = await portal.ok('subscriptions/preview', { id, change: { line_item_id: lineId, product_price_id: dear } });
    // Almost the whole month is left: about 3,000 − 1,000.
    expect(preview.update_invoice.total_amount).toBeGreaterThan(1_900);
    expect(preview.update_invoice.total_amount).toBeLessThanOrEqual(2_000);
    expect(preview.next_invoice.total_amount).toBe(3_000);
    const changed = await portal.ok('subscriptions/change', { id, line_item_id: lineId, product_price_id: dear });
    expect(changed.line_items[0]).toMatchObject({ product_price_id: dear });
    const issued = await s.invoices(id);
    expect(issued.at(-1)).toMatchObject({ totalAmount: preview.update_invoice.total_amount });
  });
});

describe('subscriptions/preview', () => {
  it('shows the next invoice with the usage measured so far', async () => {
    const meter = await s.ok('meters/create', { name: 'Portal API calls', event_name: 'portal.api_call', aggregation: 'COUNT' });
    const product = await s.ok('products/create', { name: 'API calls' });
    const price = await s.ok('product-prices/create', {
      product_id: product.id,
      currency: 'EUR',
      billing_type: 'USAGE',
      billing_period_config: { value: 1, unit: 'MONTH' },
      meter_id: meter.id,
      usage_model: { model: 'PER_UNIT', unit_amount_decimal: '25' },
    });
    const { customerId } = await s.payer();
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: price.id, quantity: 1 }] });
    await s.statusBecomes(created.id, 'ACTIVE');
    const at = new Date(Date.now() + 1_000).toISOString();
    const ingested = await s.ok('usage-events/ingest', {
      events: [1, 2, 3].map((n) => ({ event_id: `portal-${n}`, event_name: 'portal.api_call', customer_id: customerId, timestamp: at })),
    });
    expect(ingested.accepted).toBe(3);

    const portal = await portalSignIn(platform, customerId);
    const preview = await portal.ok('subscriptions/preview', { id: created.id });
    const usageLine = preview.next_invoice.line_items.find((line: { usage?: unknown }) => line.usage);
    expect(usageLine).toMatchObject({ amount: 75, usage: { meter_id: meter.id, quantity: '3' } });
  });
});
