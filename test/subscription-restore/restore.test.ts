import { computeV1Signature } from '../../domain/v1-signature';
import { createAccount } from '../../scripts/operator/accounts';
import { issueV1Secret, operatorSecretsKey } from '../../scripts/operator/v1-secrets';
import { merchant, waitFor } from '../invoices-payments/fixtures';
import { usePlatform } from '../support/platform';

/** POST /subscription/restore on the whole platform: real restore, real workflow, real time-skipping server. */

const platform = usePlatform();
let api: ReturnType<typeof merchant>;
let secret: string;
let priceId: string;
let customerId: string;
let instrumentId: string;

beforeAll(async () => {
  api = merchant(platform);
  secret = (await issueV1Secret(platform.db, platform.accountId, operatorSecretsKey())).secret;
  const product = await api.ok('products/create', { name: 'Streaming' });
  priceId = (
    await api.ok('product-prices/create', {
      product_id: product.id,
      currency: 'EUR',
      amount: 1_000,
      billing_type: 'RECURRING',
      billing_period_config: { value: 1, unit: 'MONTH' },
    })
  ).id;
  await api.ok('coupons/create', { code: 'COMEBACK', calculation_type: 'PERCENTAGE', calculation_value: 20 });
  customerId = await api.customer();
  instrumentId = await api.card(customerId, '4242424242424242');
});

async function getSubscription(id: string) {
  return api.ok('subscriptions/get', { id });
}

/** An ACTIVE subscription (first invoice paid) cancelled at once. */
async function cancelledSubscription(): Promise<string> {
  const created = await api.ok('subscriptions/create', {
    customer_id: customerId,
    payment_instrument_id: instrumentId,
    line_items: [{ product_price_id: priceId, quantity: 1 }],
  });
  // Generous: the machine runs other suites beside this one.
  await waitFor('the first payment', async () => (await getSubscription(created.id)).status === 'ACTIVE', 60_000);
  await api.ok('subscriptions/cancel', { id: created.id, mode: 'IMMEDIATELY' });
  await waitFor('the cancellation', async () => (await getSubscription(created.id)).status === 'CANCELLED', 60_000);
  return created.id;
}

async function restoreV1(body: object, options: { merchant?: string; key?: string; signature?: string } = {}) {
  const raw = JSON.stringify(body);
  const response = await fetch(`${platform.baseUrl}/subscription/restore`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      merchant: options.merchant ?? platform.accountId,
      signature: options.signature ?? computeV1Signature(options.key ?? secret, raw),
    },
    body: raw,
  });
  return { status: response.status, requestId: response.headers.get('request-id'), body: (await response.json()) as any };
}

describe('POST /subscription/restore', () => {
  let subscriptionId: string;

  beforeAll(async () => {
    subscriptionId = await cancelledSubscription();
  });

  it('refuses a wrong signature with 401 1.01 and leaves the subscription CANCELLED', async () => {
    const res = await restoreV1({ subscription_id: subscriptionId, coupon_code: 'COMEBACK' }, { signature: computeV1Signature(`${secret}0`, '{}') });
    expect(res.status).toBe(401);
    expect(res.requestId).toMatch(/^req_/);
    expect(res.body).toEqual({ error: { code: '1.01', message: expect.any(String) } });
    const after = await getSubscription(subscriptionId);
    expect(after.status).toBe('CANCELLED');
    expect(after.discounts).toEqual([]);
  });

  it('restores with a correct signature: ACTIVE again, with the coupon and the expiry, SubscriptionActivated', async () => {
    const res = await restoreV1({ subscription_id: subscriptionId, coupon_code: 'COMEBACK', expired_at: '2099-12-31 23:59:59' });
    expect(res.status).toBe(200);
    expect(res.requestId).toMatch(/^req_/);
    expect(res.body).toEqual({ status: 'ok' });

    const restored = await getSubscription(subscriptionId);
    expect(restored.status).toBe('ACTIVE');
    expect(restored.cancellation_info).toBeUndefined();
    expect(restored.ends_at).toBe('2099-12-31T23:59:59.000000Z');
    expect(restored.discounts).toEqual([expect.objectContaining({ coupon_code: 'COMEBACK' })]);
    const events = await platform.db.outboxEvent.findMany({ where: { eventType: 'SUBSCRIPTION_ACTIVATED' }, orderBy: { id: 'asc' } });
    expect(events.filter((e) => (e.data as any).subscription?.id === subscriptionId)).toHaveLength(2);
  });

  it('answers a second restore with 200 status error, 2.01 and the reason INCOMPATIBLE_STATUS', async () => {
    const res = await restoreV1({ subscription_id: subscriptionId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'error', error: { code: '2.01', message: expect.any(String), reason: 'INCOMPATIBLE_STATUS' } });
    expect((await getSubscription(subscriptionId)).status).toBe('ACTIVE');
  });

  it('answers 404 2.01 naming an unknown subscription, and one of another account alike', async () => {
    const unknown = 'subs_01jz0000000000000000000000';
    const res = await restoreV1({ subscription_id: unknown });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: '2.01', message: `Subscription ${unknown} does not exist.` } });

    const other = await createAccount(platform.db, 'Other merchant');
    const otherSecret = (await issueV1Secret(platform.db, other.id, operatorSecretsKey())).secret;
    const foreign = await restoreV1({ subscription_id: subscriptionId }, { merchant: other.id, key: otherSecret });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe(`Subscription ${subscriptionId} does not exist.`);
  });
});

describe('restore with an unknown coupon, then a past expiry', () => {
  it('404 for the coupon leaves it CANCELLED; a past expired_at restores with ends_at now', async () => {
    const subscriptionId = await cancelledSubscription();
    const missing = await restoreV1({ subscription_id: subscriptionId, coupon_code: 'NO-SUCH-COUPON' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('2.01');
    expect(missing.body.error.message).toContain('NO-SUCH-COUPON');
    expect((await getSubscription(subscriptionId)).status).toBe('CANCELLED');

    const before = Date.now();
    const res = await restoreV1({ subscription_id: subscriptionId, expired_at: '2001-01-01 00:00:00' });
    const after = Date.now();
    expect(res.body).toEqual({ status: 'ok' });
    const restored = await getSubscription(subscriptionId);
    const endsAt = Date.parse(restored.ends_at);
    expect(endsAt).toBeGreaterThanOrEqual(before - 1);
    expect(endsAt).toBeLessThanOrEqual(after + 1);
  });
});
