import { findPrices } from '../../services/subscriptions/references';
import type { Platform } from '../support/platform';
import { useSubscriptionPlatform, type SubscriptionSteps } from './fixtures';

let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

/** The prices a subscription's lines bill, read with their products in one statement: exactly what Prisma's nested select reads. */
describe('the one-statement price read', () => {
  const prismaPrices = (ids: string[]) =>
    platform.db.productPrice.findMany({
      where: { accountId: platform.accountId, id: { in: ids } },
      select: { id: true, currency: true, amount: true, taxCategoryId: true, billingType: true, billingPeriodValue: true, billingPeriodUnit: true, productId: true, product: { select: { name: true, description: true } } },
    });

  it('equals Prisma’s reading, on the pool and in a transaction, and leaves out what the account lacks', async () => {
    const described = await s.ok('products/create', { name: 'Described', description: 'With a description' });
    const taxed = await s.ok('product-prices/create', {
      product_id: described.id,
      currency: 'JPY',
      amount: 1_250,
      billing_type: 'RECURRING',
      billing_period_config: { value: 3, unit: 'MONTH' },
      tax_category_id: 'taxc_standard',
    });
    const ids = [await s.price(990), await s.price(4_500, null, 'One-off'), taxed.id];
    const expected = new Map((await prismaPrices(ids)).map((price) => [price.id, price]));
    expect(expected.size).toBe(3);
    expect(expected.get(taxed.id)).toMatchObject({ taxCategoryId: 'taxc_standard', product: { description: 'With a description' } });

    const asked = [...ids, ids[0]!, '00000000-0000-4000-8000-000000000000'];
    expect(await findPrices(platform.db, platform.accountId, asked)).toEqual(expected);
    expect(await platform.db.$transaction((tx) => findPrices(tx, platform.accountId, asked))).toEqual(expected);
    expect((await findPrices(platform.db, 'acc_other', ids)).size).toBe(0);
  });
});
