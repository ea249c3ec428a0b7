import { subscriptionReportRow, type SubscriptionReportSource } from '../../domain/report-columns';
import { subscriptions } from '../subscriptions/fixtures';
import { usePlatform } from '../support/platform';

/**
 * Section 2.2: metadata is arbitrary key-value pairs. Strings, numbers and booleans are taken
 * everywhere metadata is, and every reading answers them as sent: a number stays a number.
 */
const platform = usePlatform();

const metadata = { plan: 'gold', seats: 12, ratio: 0.25, vip: true, trial: false };

describe('metadata values other than strings', () => {
  it('are answered as sent by invoices/create, update and get, and carried so in InvoiceCreated', async () => {
    const customer = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'meta@example.com' });
    const created = await platform.call('/v2/invoices/create', {
      customer_id: customer.body.id,
      currency: 'EUR',
      line_items: [{ amount: 1000, description: 'Setup', quantity: 1 }],
      metadata,
    });
    expect(created.status).toBe(200);
    expect(created.body.metadata).toEqual(metadata);
    expect((await platform.call('/v2/invoices/get', { id: created.body.id })).body.metadata).toEqual(metadata);
    const events = await platform.db.outboxEvent.findMany({ where: { eventType: 'INVOICE_CREATED' } });
    const mine = events.find((e) => (e.data as { invoice: { id: string } }).invoice.id === created.body.id);
    expect((mine!.data as { invoice: { metadata: unknown } }).invoice.metadata).toEqual(metadata);
    const updated = await platform.call('/v2/invoices/update', { id: created.body.id, metadata: { seats: 13 } });
    expect(updated.body.metadata).toEqual({ seats: 13 });
  });

  it('are answered as sent by subscriptions/create, update and get', async () => {
    const s = subscriptions(platform);
    const { customerId, instrumentId } = await s.payer();
    const created = await platform.call('/v2/subscriptions/create', {
      customer_id: customerId,
      payment_instrument_id: instrumentId,
      line_items: [{ product_price_id: await s.price(1_000), quantity: 1 }],
      metadata,
    });
    expect(created.status).toBe(200);
    expect(created.body.metadata).toEqual(metadata);
    expect((await platform.call('/v2/subscriptions/get', { id: created.body.id })).body.metadata).toEqual(metadata);
    const updated = await platform.call('/v2/subscriptions/update', { id: created.body.id, metadata: { vip: false, seats: 3 } });
    expect(updated.status).toBe(200);
    expect(updated.body.metadata).toEqual({ vip: false, seats: 3 });
  });

  it('are refused when null, an object or an array, with the limits on strings kept', async () => {
    const customer = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'meta2@example.com' });
    for (const value of [null, { nested: 1 }, [1]]) {
      const res = await platform.call('/v2/invoices/create', { customer_id: customer.body.id, currency: 'EUR', metadata: { key: value } });
      expect({ value, status: res.status, type: res.body.context?.constraints?.['metadata.key']?.type }).toEqual({ value, status: 400, type: 'TYPE' });
    }
    const long = await platform.call('/v2/invoices/create', { customer_id: customer.body.id, currency: 'EUR', metadata: { key: 'x'.repeat(501) } });
    expect(long.body.context.constraints['metadata.key'].type).toBe('MAX');
  });

  it('are written into a SUBSCRIPTIONS report as JSON, numbers and booleans unquoted', () => {
    const line = {
      id: 'slit_1', productId: 'p', productPriceId: 'pp', billingType: 'RECURRING', currency: 'EUR', amount: 1, quantity: 1, startedAt: null,
      periodStartAt: '2026-01-01T00:00:00.000000Z', periodEndAt: null, billingPeriodValue: 1, billingPeriodUnit: 'MONTH', productName: 'n',
      productDescription: null, createdAt: '2026-01-01T00:00:00.000000Z', updatedAt: '2026-01-01T00:00:00.000000Z',
    };
    const source = {
      id: 'subs_1', customerId: 'cust_1', status: 'ACTIVE', currency: 'EUR', description: null, paymentInstrumentId: null, latestInvoiceId: null,
      merchantReference: null, createdAt: '2026-01-01T00:00:00.000000Z', updatedAt: '2026-01-01T00:00:00.000000Z', startedAt: null, nextBillingAt: null,
      anchorAt: null, trialInfo: null, cancellationInfo: null, discounts: [], metadata, line,
    } as SubscriptionReportSource;
    expect(subscriptionReportRow(source)).toContain('{"plan":"gold","seats":12,"ratio":0.25,"vip":true,"trial":false}');
  });
});
