import { readSubscriptionRow } from '../../services/subscriptions/subscription-read';
import { subscriptionSelect } from '../../services/subscriptions/subscription-row';
import type { Platform } from '../support/platform';
import { useSubscriptionPlatform, type SubscriptionSteps } from './fixtures';

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

/**
 * readSubscriptionRow reads a subscription and its lines in one hand-written statement: it must
 * give exactly the row Prisma's `subscriptionSelect` gives, whatever the subscription holds.
 */
describe('the one-statement subscription read', () => {
  const prismaRow = (id: string) => platform.db.subscription.findUnique({ where: { id }, select: subscriptionSelect });

  it('equals Prisma’s row for a bare subscription and one with a trial, a cancellation, metadata and a taxed line', async () => {
    const { customerId } = await s.payer();
    await s.ok('customers/patch', { id: customerId, address: { country: 'DEU', city: 'Berlin' } });
    const bare = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: await s.price(1_000), quantity: 1 }] });
    const now = await s.now();
    const full = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [
        { product_price_id: await s.price(7_000, { value: 1, unit: 'WEEK' }), quantity: 2, tax: { mode: 'EXCLUSIVE', rate: 7.25, category_id: 'taxc_reduced' } },
        { product_price_id: await s.price(500, null, 'Setup'), quantity: 1 },
      ],
      trial: { type: 'FREE', end_at: new Date(now + 7 * 86_400_000).toISOString() },
      metadata: { plan: 'gold', seats: '2' },
      description: 'With everything',
    });
    await s.statusBecomes(full.id, 'TRIALING');
    await s.ok('subscriptions/cancel', { id: full.id, mode: 'PERIOD_END' });
    // The two readings are taken one after the other, so the row must be at rest: bare's first
    // cycle is billed and charged by its workflow after the create answered.
    await s.settled(bare.id, 1);
    await s.statusBecomes(bare.id, 'ACTIVE');

    for (const id of [bare.id, full.id]) {
      const expected = await prismaRow(id);
      expect(expected).not.toBeNull();
      expect(await readSubscriptionRow(platform.db, id)).toEqual(expected);
      expect(await readSubscriptionRow(platform.db, id, platform.accountId)).toEqual(expected);
      expect(await platform.db.$transaction((tx) => readSubscriptionRow(tx, id))).toEqual(expected);
    }
    const read = (await readSubscriptionRow(platform.db, full.id))!;
    expect(read.lineItems.map((line) => [line.position, line.taxRate?.toString() ?? null])).toEqual([
      [0, '7.25'],
      [1, null],
    ]);
    expect(read.cancellationInfo).not.toBeNull();
  });

  it('finds nothing for another account or an unknown id', async () => {
    const { customerId } = await s.payer();
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: await s.price(1_000), quantity: 1 }] });
    expect(await readSubscriptionRow(platform.db, created.id, 'acc_other')).toBeNull();
    expect(await readSubscriptionRow(platform.db, 'subs_01jdoesnotexist000000000000')).toBeNull();
  });
});
