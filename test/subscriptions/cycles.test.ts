import { startPlatform, type Platform } from '../support/platform';
import { DAY, isoDay, subscriptions } from './fixtures';

let platform: Platform;
let s: ReturnType<typeof subscriptions>;

beforeAll(async () => {
  platform = await startPlatform();
  s = subscriptions(platform);
});

afterAll(() => platform?.stop());

describe('billing cycles', () => {
  it('starts at once: PENDING, the SUBSCRIPTION_CREATE invoice is charged, ACTIVE', async () => {
    const { customerId, instrumentId } = await s.payer();
    const priceId = await s.price(1_999);
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 2 }] });
    expect(created).toMatchObject({ status: 'PENDING', currency: 'EUR', customer_id: customerId, payment_instrument_id: instrumentId });
    expect(created.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(created.line_items).toHaveLength(1);
    expect(created.line_items[0]).toMatchObject({ billing_type: 'RECURRING', amount: 1_999, quantity: 2, billing_period_config: { value: 1, unit: 'MONTH' } });
    expect(created.line_items[0].id).toMatch(/^slit_/);

    const active = await s.statusBecomes(created.id, 'ACTIVE');
    const [invoice] = await s.settled(created.id, 1);
    expect(invoice).toMatchObject({ status: 'PAID', billingReason: 'SUBSCRIPTION_CREATE', totalAmount: 3_998, subscriptionId: created.id });
    expect(active.latestInvoiceId).toBe(invoice!.id);
    expect(await s.eventTypes(created.id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_ACTIVATED']);
    const got = await s.get(created.id);
    expect(got).toMatchObject({ status: 'ACTIVE', latest_invoice_id: invoice!.id });
    expect(Date.parse(got.next_billing_at)).toBeGreaterThan(Date.parse(got.started_at));
  });
});
