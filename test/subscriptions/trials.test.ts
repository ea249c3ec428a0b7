import { DAY, MINUTE, useSubscriptionPlatform, type SubscriptionSteps } from './fixtures';

let s: SubscriptionSteps;

useSubscriptionPlatform((_platform, steps) => {
  s = steps;
});

const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString().replace('Z', '000Z');

describe('trials', () => {
  it('a FREE trial bills nothing, then converts: SUBSCRIPTION_CREATE at its end, anchored there, ACTIVE', async () => {
    const { customerId } = await s.payer();
    const priceId = await s.price(2_000);
    const startsAt = await s.soon();
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: priceId, quantity: 1 }],
      starts_at: startsAt,
      trial: { type: 'FREE', period_config: { value: 14, unit: 'DAY' } },
    });
    const trialEnd = plus(startsAt, 14 * DAY);
    expect(created).toMatchObject({
      status: 'CREATED',
      trial_info: { type: 'FREE', amount: 0, period: { start_at: plus(startsAt, 0), end_at: trialEnd }, period_config: { value: 14, unit: 'DAY' } },
      anchor_at: trialEnd,
      next_billing_at: trialEnd,
    });

    await s.sleep(2 * MINUTE);
    expect(await s.get(created.id)).toMatchObject({ status: 'TRIALING', started_at: plus(startsAt, 0) });
    await s.sleep(13 * DAY);
    expect(await s.invoices(created.id)).toHaveLength(0);
    await s.sleep(DAY);
    const [invoice] = await s.settled(created.id, 1);
    expect(invoice).toMatchObject({ billingReason: 'SUBSCRIPTION_CREATE', totalAmount: 2_000, status: 'PAID' });
    await s.statusBecomes(created.id, 'ACTIVE');
    expect(await s.eventTypes(created.id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_TRIAL_ACTIVATED', 'SUBSCRIPTION_UPDATED', 'SUBSCRIPTION_ACTIVATED']);
    const got = await s.get(created.id);
    expect(Date.parse(got.next_billing_at)).toBeGreaterThan(Date.parse(trialEnd) + 27 * DAY);
  });

  it('a PAID trial invoices its amount at the start (PENDING, then TRIALING), then the first full period', async () => {
    const { customerId } = await s.payer();
    const priceId = await s.price(7_000, { value: 1, unit: 'WEEK' });
    const startsAt = await s.soon();
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: priceId, quantity: 1 }],
      starts_at: startsAt,
      trial: { type: 'PAID', amount: 500, end_at: new Date(Date.parse(startsAt) + 3 * DAY).toISOString() },
    });
    await s.sleep(2 * MINUTE);
    const [trialInvoice] = await s.settled(created.id, 1);
    expect(trialInvoice).toMatchObject({ billingReason: 'SUBSCRIPTION_CREATE', totalAmount: 500, status: 'PAID' });
    expect(trialInvoice!.lineItems[0]!.description).toMatch(/^Trial /);
    await s.statusBecomes(created.id, 'TRIALING');
    await s.sleep(3 * DAY);
    const [, first] = await s.settled(created.id, 2);
    expect(first).toMatchObject({ billingReason: 'SUBSCRIPTION_CYCLE', totalAmount: 7_000 });
    await s.statusBecomes(created.id, 'ACTIVE');
    expect(await s.eventTypes(created.id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_TRIAL_ACTIVATED', 'SUBSCRIPTION_UPDATED', 'SUBSCRIPTION_ACTIVATED']);
  });

  it('a trial cancelled at its period end never bills', async () => {
    const { customerId } = await s.payer();
    const priceId = await s.price(2_000);
    const startsAt = await s.soon();
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: priceId, quantity: 1 }],
      starts_at: startsAt,
      trial: { type: 'FREE', period_config: { value: 7, unit: 'DAY' } },
    });
    await s.sleep(2 * MINUTE);
    const scheduled = await s.ok('subscriptions/cancel', { id: created.id, mode: 'PERIOD_END', comment: 'Not for us' });
    expect(scheduled).toMatchObject({
      status: 'TRIALING',
      cancellation_info: { mode: 'PERIOD_END', cancel_at: plus(startsAt, 7 * DAY), reason: 'CANCELLATION_REQUESTED', comment: 'Not for us' },
    });
    expect(scheduled.next_billing_at).toBeUndefined();
    expect(await s.refused('subscriptions/update', { id: created.id, end_trial: true })).toMatchObject({ status: 422, code: 'CANCELLATION_SCHEDULED' });
    await s.sleep(8 * DAY);
    await s.statusBecomes(created.id, 'CANCELLED');
    await s.sleep(31 * DAY);
    expect(await s.invoices(created.id)).toHaveLength(0);
    expect(await s.eventTypes(created.id)).toEqual([
      'SUBSCRIPTION_CREATED',
      'SUBSCRIPTION_TRIAL_ACTIVATED',
      'SUBSCRIPTION_SCHEDULED_FOR_CANCELLATION',
      'SUBSCRIPTION_CANCELLED',
    ]);
  });

  it('end_trial starts billing at once; the period up to the anchor is prorated', async () => {
    const { customerId } = await s.payer();
    const priceId = await s.price(7_000, { value: 1, unit: 'WEEK' });
    const startsAt = await s.soon();
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: priceId, quantity: 1 }],
      starts_at: startsAt,
      trial: { type: 'FREE', end_at: new Date(Date.parse(startsAt) + 7 * DAY).toISOString() },
    });
    await s.sleep(4 * DAY + MINUTE);
    const ended = await s.ok('subscriptions/update', { id: created.id, end_trial: true });
    expect(ended.status).toBe('PENDING');
    const [invoice] = await s.settled(created.id, 1);
    // Three days of seven are left until the anchor (the trial's planned end).
    expect(invoice).toMatchObject({ billingReason: 'SUBSCRIPTION_CREATE', totalAmount: 3_000 });
    await s.statusBecomes(created.id, 'ACTIVE');
    expect(await s.refused('subscriptions/update', { id: created.id, end_trial: true })).toMatchObject({ status: 422, code: 'TRIAL_NOT_ACTIVE' });
    await s.sleep(3 * DAY);
    const [, full] = await s.settled(created.id, 2);
    expect(full).toMatchObject({ billingReason: 'SUBSCRIPTION_CYCLE', totalAmount: 7_000 });
  });

  it('an open-ended trial has no end_at and bills only once ended', async () => {
    const { customerId } = await s.payer();
    const priceId = await s.price(1_500);
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: priceId, quantity: 1 }],
      starts_at: await s.soon(),
      trial: { type: 'FREE' },
    });
    expect(created.trial_info.period.end_at).toBeUndefined();
    expect(created.next_billing_at).toBeUndefined();
    await s.sleep(40 * DAY);
    expect(await s.get(created.id)).toMatchObject({ status: 'TRIALING' });
    expect(await s.refused('subscriptions/cancel', { id: created.id, mode: 'PERIOD_END' })).toMatchObject({ status: 422, code: 'NO_PERIOD_END' });
    await s.ok('subscriptions/update', { id: created.id, end_trial: true });
    const [invoice] = await s.settled(created.id, 1);
    expect(invoice).toMatchObject({ billingReason: 'SUBSCRIPTION_CREATE', totalAmount: 1_500 });
    const active = await s.statusBecomes(created.id, 'ACTIVE');
    expect(active.anchorAt).not.toBeNull();
  });
});
