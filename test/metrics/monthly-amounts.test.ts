import { subscriptionMonthlyAmount } from '../../domain/metrics/subscription-monthly-amount';
import { currentMrr } from '../../services/metrics/mrr';
import { stateOfRow } from '../../services/subscriptions/repository';
import { subscriptionSelect } from '../../services/subscriptions/subscription-row';
import type { Platform } from '../support/platform';
import { useSubscriptionPlatform, type SubscriptionSteps } from '../subscriptions/fixtures';

/**
 * docs/metrics.md, "The MRR rule": every save keeps a subscription's monthly amount on its row, a
 * column that must never refuse a save however large the amount; rows without one are filled in
 * batches by the same rule.
 */
let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

it('keeps a monthly amount past any 32-bit integer: 1,000 a minute for 50 seats is 2,191,500,000 a month', async () => {
  const { customerId } = await s.payer();
  const priceId = await s.price(1_000, { value: 1, unit: 'MINUTE' }, 'Per minute');
  const created = await platform.call('/v2/subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: priceId, quantity: 50 }], starts_at: await s.soon() });
  expect(created.status).toBe(200);
  const row = await platform.db.subscription.findUniqueOrThrow({ where: { id: created.body.id } });
  expect(row.monthlyAmount?.toString()).toBe('2191500000');
});

it('fills the rows that have none with the rule every save uses, and MRR reads them', async () => {
  const ids: string[] = [];
  for (const amount of [1_000, 2_500, 333]) {
    const { customerId } = await s.payer();
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: await s.price(amount, { value: 1, unit: 'WEEK' }), quantity: 2 }] });
    ids.push(created.id);
  }
  for (const id of ids) await s.statusBecomes(id, 'ACTIVE');
  const before = await currentMrr(platform.db, platform.accountId, 'EUR');
  await platform.db.subscription.updateMany({ where: { accountId: platform.accountId }, data: { monthlyAmount: null } });
  expect(await currentMrr(platform.db, platform.accountId, 'EUR')).toBe(before);
  const rows = await platform.db.subscription.findMany({ where: { id: { in: ids } }, select: { ...subscriptionSelect, monthlyAmount: true } });
  for (const row of rows) expect(row.monthlyAmount?.toString()).toBe(String(subscriptionMonthlyAmount(stateOfRow(row))));
  expect(before).toBeGreaterThan(0);
});
