import { customerSelect, findCustomer, lockCustomer } from '../../services/customers/repository';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

/**
 * findCustomer reads a customer and its balances in one hand-written statement: it must give
 * exactly the row Prisma's `customerSelect` gives, whatever the customer holds.
 */
describe('the one-statement customer read', () => {
  const prismaRow = (id: string) => platform.db.customer.findFirst({ where: { id, accountId: platform.accountId }, select: customerSelect });

  async function create(body: Record<string, unknown>): Promise<string> {
    const res = await platform.call('/v2/customers/create', body);
    expect(res.status).toBe(200);
    return res.body.id as string;
  }

  it('equals Prisma’s row for a sparse individual, a full business with balances in two currencies, and under the row lock', async () => {
    const sparse = await create({ type: 'INDIVIDUAL', email: 'ada@example.com' });
    const full = await create({
      type: 'BUSINESS',
      email: 'ops@example.com',
      phone: '+12025550143',
      merchant_customer_id: 'crm-9',
      address: { city: 'Arlington', country: 'USA', state: 'VA' },
      configuration: { default_billing_currency: 'USD', preferred_locales: ['en-US'] },
      metadata: { tier: 'gold' },
      business_details: { name: 'Example Corp' },
    });
    for (const [amount, currency] of [[-1_500, 'USD'], [250, 'EUR']] as const) {
      const res = await platform.call('/v2/customer-balance-transactions/create', { customer_id: full, amount, currency, description: 'Goodwill' });
      expect(res.status).toBe(200);
    }

    for (const id of [sparse, full]) {
      const expected = await prismaRow(id);
      expect(expected).not.toBeNull();
      expect(await findCustomer(platform.db, platform.accountId, id)).toEqual(expected);
      expect(await platform.db.$transaction((tx) => lockCustomer(tx, platform.accountId, id))).toEqual(expected);
      expect(await platform.db.$transaction((tx) => findCustomer(tx, platform.accountId, id))).toEqual(expected);
    }
    expect((await findCustomer(platform.db, platform.accountId, full))!.balances).toEqual([
      { currency: 'EUR', balance: 250 },
      { currency: 'USD', balance: -1_500 },
    ]);
  });

  it('finds nothing for another account’s customer or an unknown id', async () => {
    const id = await create({ type: 'INDIVIDUAL', email: 'bob@example.com' });
    expect(await findCustomer(platform.db, 'acc_other', id)).toBeNull();
    expect(await findCustomer(platform.db, platform.accountId, 'cust_01nonexistent0000000000000')).toBeNull();
  });
});
