import { subscriptionWorkflowId } from '../../domain/workflow-ids';
import type { Platform } from '../support/platform';
import { DAY, MINUTE, waitFor, useSubscriptionPlatform, type SubscriptionSteps } from './fixtures';

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

const VAT = { mode: 'EXCLUSIVE', rate: 20 } as const;

/** A payer the platform can invoice tax: TAXABLE (the default) with an address country. */
async function taxedPayer() {
  const payer = await s.payer();
  await s.ok('customers/patch', { id: payer.customerId, address: { country: 'DEU', city: 'Berlin' } });
  return payer;
}

async function taxedPrice(amount: number) {
  const product = await s.ok('products/create', { name: 'Seat' });
  return (
    await s.ok('product-prices/create', {
      product_id: product.id,
      currency: 'EUR',
      amount,
      billing_type: 'RECURRING',
      billing_period_config: { value: 1, unit: 'WEEK' },
      tax_category_id: 'taxc_standard',
    })
  ).id as string;
}

describe('tax on subscription lines', () => {
  it('every invoice line of a taxed item carries its tax, its category defaulting to the price’s', async () => {
    const { customerId } = await taxedPayer();
    const priceId = await taxedPrice(1_000);
    const startsAt = await s.soon();
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 2, tax: VAT }], starts_at: startsAt });
    expect(created.line_items[0].tax).toEqual({ category_id: 'taxc_standard', mode: 'EXCLUSIVE', rate: 20 });

    await s.sleep(2 * MINUTE);
    await s.statusBecomes(created.id, 'ACTIVE');
    await s.sleep(7 * DAY);
    const [first, renewal] = await s.settled(created.id, 2);
    for (const invoice of [first!, renewal!]) {
      expect(invoice).toMatchObject({ totalAmount: 2_400, status: 'PAID', amountDetails: { subtotal: 2_000, discount: 0, taxable: 2_000, tax: 400 } });
      expect(invoice.lineItems[0]).toMatchObject({ taxCategoryId: 'taxc_standard', taxMode: 'EXCLUSIVE', tax: 400 });
      expect(Number(invoice.lineItems[0]!.taxRate)).toBe(20);
    }
    expect((await s.get(created.id)).line_items[0].tax).toEqual({ category_id: 'taxc_standard', mode: 'EXCLUSIVE', rate: 20 });
  });

  it('refuses taxed lines for a TAXABLE customer without an address country, at create and at update', async () => {
    const { customerId } = await s.payer();
    const priceId = await taxedPrice(500);
    const refusal = await s.refused('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1, tax: VAT }] });
    expect(refusal).toMatchObject({ status: 422, code: 'CUSTOMER_ADDRESS_COUNTRY_REQUIRED', context: { field: 'line_items', customer_id: customerId } });

    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1 }], starts_at: await s.soon() });
    const update = await s.refused('subscriptions/update', { id: created.id, line_items: { update: [{ id: created.line_items[0].id, tax: VAT }] } });
    expect(update).toMatchObject({ status: 422, code: 'CUSTOMER_ADDRESS_COUNTRY_REQUIRED', context: { field: 'line_items.update' } });
    // A zero rate charges no tax: nothing to refuse.
    const zero = await s.ok('subscriptions/update', { id: created.id, line_items: { update: [{ id: created.line_items[0].id, tax: { mode: 'EXCLUSIVE', rate: 0 } }] } });
    expect(zero.line_items[0].tax).toEqual({ category_id: 'taxc_standard', mode: 'EXCLUSIVE', rate: 0 });
  });

  it('prorates per tax treatment: a taxed upgrade is invoiced with its tax; removing the tax credits the taxed part back and charges it untaxed', async () => {
    const { customerId } = await taxedPayer();
    const priceId = await taxedPrice(700);
    const startsAt = await s.soon();
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1, tax: VAT }], starts_at: startsAt });
    const lineId = created.line_items[0].id as string;
    await s.sleep(2 * MINUTE);
    await s.statusBecomes(created.id, 'ACTIVE');
    await s.sleep(Date.parse(startsAt) + 4 * DAY - (await s.now()));

    // Three days of seven left: one seat to two is +300, taxed like the seat.
    await s.ok('subscriptions/update', { id: created.id, line_items: { update: [{ id: lineId, quantity: 2 }] } });
    const [first, upgrade] = await s.settled(created.id, 2);
    expect(first).toMatchObject({ totalAmount: 840 });
    expect(upgrade).toMatchObject({ totalAmount: 360, status: 'PAID', amountDetails: { subtotal: 300, tax: 60 } });
    expect(upgrade!.lineItems[0]).toMatchObject({ amount: 300, taxMode: 'EXCLUSIVE' });

    // The tax removed: −600 in the taxed group, +600 untaxed. 600 is invoiced without tax, and
    // the credit, scaled by the newest paid invoice (360 / 300), is 720: 360 from it, 360 from the first.
    const untaxed = await s.ok('subscriptions/update', { id: created.id, line_items: { update: [{ id: lineId, tax: null }] }, proration_credit: 'REFUND' });
    expect(untaxed.line_items[0].tax).toBeUndefined();
    const [, , recharge] = await s.settled(created.id, 3);
    expect(recharge).toMatchObject({ totalAmount: 600, status: 'PAID', amountDetails: { subtotal: 600, tax: 0 } });
    expect(recharge!.lineItems[0]!.taxMode).toBeNull();
    const refunds = await waitFor('the credit refunds', async () => {
      const rows = await platform.db.refund.findMany({ where: { invoice: { subscriptionId: created.id } }, orderBy: { amount: 'asc' } });
      return rows.length === 2 && rows.every((r) => r.status === 'SUCCEEDED') ? rows : undefined;
    });
    expect(refunds.map((r) => [r.invoiceId, r.amount])).toEqual(
      expect.arrayContaining([
        [upgrade!.id, 360],
        [first!.id, 360],
      ]),
    );
  });

  it('a cycle whose invoice cannot be finalized (the customer lost its country) waits and is billed once that is fixed; the workflow keeps running', async () => {
    const { customerId } = await taxedPayer();
    const priceId = await taxedPrice(1_000);
    const startsAt = await s.soon();
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1, tax: VAT }], starts_at: startsAt });
    await s.sleep(2 * MINUTE);
    await s.statusBecomes(created.id, 'ACTIVE');
    await s.ok('customers/patch', { id: customerId, address: null });

    await s.sleep(7 * DAY + 2 * MINUTE);
    expect(await s.invoices(created.id)).toHaveLength(1);
    expect((await s.client.workflow.getHandle(subscriptionWorkflowId(created.id)).describe()).status.name).toBe('RUNNING');
    expect((await s.get(created.id)).status).toBe('ACTIVE');

    await s.ok('customers/patch', { id: customerId, address: { country: 'DEU', city: 'Berlin' } });
    await s.sleep(DAY);
    const [, renewal] = await s.settled(created.id, 2);
    // The period billed is the one that was due, from its own boundary.
    const boundary = new Date(Date.parse(startsAt) + 7 * DAY).toISOString().slice(0, 10);
    expect(renewal).toMatchObject({ billingReason: 'SUBSCRIPTION_CYCLE', totalAmount: 1_200, status: 'PAID' });
    expect(renewal!.lineItems[0]!.description).toContain(boundary);
  });
});
