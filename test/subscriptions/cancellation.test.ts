import { restoreSubscription } from '../../services/subscriptions/restore';
import { ApiError } from '../../domain/errors';
import { createAccount } from '../../scripts/operator/accounts';
import type { Platform } from '../support/platform';
import { DAY, HOUR, MINUTE, useSubscriptionPlatform, type SubscriptionSteps } from './fixtures';

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

const micros = (iso: string) => iso.replace('Z', '000Z');

async function activeMonthly(amount = 1_000) {
  const { customerId } = await s.payer();
  const priceId = await s.price(amount);
  const startsAt = await s.soon();
  const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1 }], starts_at: startsAt });
  await s.sleep(2 * MINUTE);
  await s.statusBecomes(created.id, 'ACTIVE');
  return { id: created.id, startsAt, nextBillingAt: (await s.get(created.id)).next_billing_at as string };
}

/** restoreSubscription as the v1 transport calls it, on the test server's clock. */
async function restore(input: Omit<Parameters<typeof restoreSubscription>[2], 'accountId'> & { accountId?: string }) {
  const at = new Date(await s.now());
  return platform.db.$transaction((tx) => restoreSubscription({ temporal: platform.env.client, now: () => at }, tx, { accountId: platform.accountId, ...input }));
}

async function restoreError(input: Parameters<typeof restore>[0]): Promise<ApiError> {
  try {
    await restore(input);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('restore was accepted');
}

describe('cancellation', () => {
  it('cancels immediately: CANCELLED with cancellation_info, nothing billed afterwards, further changes refused', async () => {
    const { id } = await activeMonthly();
    const cancelled = await s.ok('subscriptions/cancel', { id, mode: 'IMMEDIATELY', reason: 'FRAUD_ALERT_RECEIVED', comment: 'Chargeback risk' });
    expect(cancelled).toMatchObject({ status: 'CANCELLED', cancellation_info: { mode: 'IMMEDIATELY', reason: 'FRAUD_ALERT_RECEIVED', comment: 'Chargeback risk' } });
    expect(cancelled.cancellation_info.cancel_at).toBe(cancelled.cancellation_info.requested_at);
    expect(cancelled.next_billing_at).toBeUndefined();
    await s.sleep(40 * DAY);
    expect(await s.invoices(id)).toHaveLength(1);
    expect(await s.eventTypes(id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_ACTIVATED', 'SUBSCRIPTION_CANCELLED']);
    expect(await s.refused('subscriptions/cancel', { id, mode: 'IMMEDIATELY' })).toMatchObject({ status: 422, code: 'INCOMPATIBLE_STATUS', context: { status: 'CANCELLED' } });
    expect(await s.refused('subscriptions/update', { id, description: 'again' })).toMatchObject({ status: 422, code: 'INCOMPATIBLE_STATUS' });
    expect(await s.refused('subscriptions/delete-cancellation', { id })).toMatchObject({ status: 422, code: 'CANCELLATION_NOT_SCHEDULED' });
    expect(await s.refused('subscriptions/cancel', { id, mode: 'IMMEDIATELY', reason: 'DUNNING_EXHAUSTED' })).toMatchObject({ status: 400, code: 'VALIDATION' });
  });

  it('without mode cancels immediately (section 3: "Cancels immediately, or schedules … when mode is PERIOD_END")', async () => {
    const { id } = await activeMonthly();
    const cancelled = await s.ok('subscriptions/cancel', { id });
    expect(cancelled).toMatchObject({ status: 'CANCELLED', cancellation_info: { mode: 'IMMEDIATELY', reason: 'CANCELLATION_REQUESTED' } });
    expect(cancelled.cancellation_info.cancel_at).toBe(cancelled.cancellation_info.requested_at);
    expect(await s.eventTypes(id)).toEqual(['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_ACTIVATED', 'SUBSCRIPTION_CANCELLED']);
    expect(await s.refused('subscriptions/cancel', { id })).toMatchObject({ status: 422, code: 'INCOMPATIBLE_STATUS', context: { status: 'CANCELLED' } });
    expect(await s.refused('subscriptions/cancel', { id, mode: 'LATER' })).toMatchObject({ status: 400, code: 'VALIDATION', context: { constraints: { mode: {} } } });
  });

  it('schedules a PERIOD_END cancellation, removes it, schedules it again, and cancels at the period end without renewing', async () => {
    const { id, nextBillingAt } = await activeMonthly();
    const scheduled = await s.ok('subscriptions/cancel', { id, mode: 'PERIOD_END' });
    expect(scheduled).toMatchObject({ status: 'ACTIVE', cancellation_info: { mode: 'PERIOD_END', cancel_at: nextBillingAt, reason: 'CANCELLATION_REQUESTED' } });
    expect(scheduled.next_billing_at).toBeUndefined();
    expect(await s.refused('subscriptions/cancel', { id, mode: 'PERIOD_END' })).toMatchObject({ status: 422, code: 'CANCELLATION_ALREADY_SCHEDULED' });

    const kept = await s.ok('subscriptions/delete-cancellation', { id });
    expect(kept.cancellation_info).toBeUndefined();
    expect(kept.next_billing_at).toBe(nextBillingAt);
    expect(await s.refused('subscriptions/delete-cancellation', { id })).toMatchObject({ status: 422, code: 'CANCELLATION_NOT_SCHEDULED' });

    await s.ok('subscriptions/cancel', { id, mode: 'PERIOD_END', comment: 'Moving on' });
    await s.sleep(Date.parse(nextBillingAt) - (await s.now()) - MINUTE);
    expect((await s.get(id)).status).toBe('ACTIVE');
    await s.sleep(2 * MINUTE);
    const cancelled = await s.statusBecomes(id, 'CANCELLED');
    expect(cancelled.cancellationInfo).toMatchObject({ mode: 'PERIOD_END', cancel_at: nextBillingAt, comment: 'Moving on' });
    await s.sleep(35 * DAY);
    expect(await s.invoices(id)).toHaveLength(1);
    expect(await s.eventTypes(id)).toEqual([
      'SUBSCRIPTION_CREATED',
      'SUBSCRIPTION_ACTIVATED',
      'SUBSCRIPTION_SCHEDULED_FOR_CANCELLATION',
      'SUBSCRIPTION_UPDATED',
      'SUBSCRIPTION_SCHEDULED_FOR_CANCELLATION',
      'SUBSCRIPTION_CANCELLED',
    ]);
  });

  it('a CREATED subscription can be cancelled now but has no period to end', async () => {
    const { customerId } = await s.payer();
    const priceId = await s.price(1_000);
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 1 }], starts_at: new Date((await s.now()) + 5 * DAY).toISOString() });
    expect(await s.refused('subscriptions/cancel', { id: created.id, mode: 'PERIOD_END' })).toMatchObject({ status: 422, code: 'INCOMPATIBLE_STATUS', context: { status: 'CREATED' } });
    expect(await s.ok('subscriptions/cancel', { id: created.id, mode: 'IMMEDIATELY' })).toMatchObject({ status: 'CANCELLED' });
    await s.sleep(6 * DAY);
    expect(await s.invoices(created.id)).toHaveLength(0);
  });
});

describe('restore (the semantics behind v1 /subscription/restore)', () => {
  it('restores a cancelled subscription to ACTIVE with the coupon and new end; billing resumes at the next boundary, never for the time it was cancelled', async () => {
    const { id, nextBillingAt } = await activeMonthly();
    await s.sleep(5 * DAY);
    await s.ok('subscriptions/cancel', { id, mode: 'IMMEDIATELY' });
    await s.sleep(5 * DAY);
    await s.ok('coupons/create', { code: 'WELCOMEBACK', calculation_type: 'PERCENTAGE', calculation_value: 10 });
    const expiresAt = new Date(Date.parse(nextBillingAt) + 45 * DAY);

    expect(await restoreError({ subscriptionId: id, coupon: { code: 'NOSUCH' } })).toMatchObject({ code: 'COUPON_NOT_FOUND' });
    await restore({ subscriptionId: id, expiresAt, coupon: { code: 'WELCOMEBACK' } });
    const restored = await s.get(id);
    expect(restored).toMatchObject({
      status: 'ACTIVE',
      next_billing_at: nextBillingAt,
      ends_at: micros(expiresAt.toISOString()),
      discounts: [{ coupon_code: 'WELCOMEBACK', calculation_type: 'PERCENTAGE', calculation_value: 10 }],
    });
    expect(restored.cancellation_info).toBeUndefined();
    expect((await s.eventTypes(id)).slice(-2)).toEqual(['SUBSCRIPTION_CANCELLED', 'SUBSCRIPTION_ACTIVATED']);
    expect(await restoreError({ subscriptionId: id })).toMatchObject({ code: 'INCOMPATIBLE_STATUS' });

    await s.sleep(Date.parse(nextBillingAt) - (await s.now()) + HOUR);
    const invoices = await s.settled(id, 2);
    expect(invoices[1]).toMatchObject({ billingReason: 'SUBSCRIPTION_CYCLE', totalAmount: 900, status: 'PAID' });
    await s.statusBecomes(id, 'ACTIVE');
    // ends_at falls inside the next period: it is cut there, then EXPIRED.
    await s.sleep(45 * DAY);
    await s.statusBecomes(id, 'EXPIRED');
    expect(await s.invoices(id)).toHaveLength(3);
  });

  it('refuses an unknown id, another account\'s subscription, and one that is not CANCELLED', async () => {
    expect(await restoreError({ subscriptionId: 'subs_unknown' })).toMatchObject({ code: 'NOT_FOUND' });
    const { id } = await activeMonthly();
    expect(await restoreError({ subscriptionId: id })).toMatchObject({ code: 'INCOMPATIBLE_STATUS', context: { status: 'ACTIVE' } });
    const other = await createAccount(platform.db, 'Someone else');
    await s.ok('subscriptions/cancel', { id, mode: 'IMMEDIATELY' });
    expect(await restoreError({ subscriptionId: id, accountId: other.id })).toMatchObject({ code: 'NOT_FOUND' });
  });
});
