import { mrrAt } from '../../services/metrics/mrr';
import { createTestDatabase, type TestDatabase } from '../support/database';

/**
 * MRR at past instants from the status history (services/metrics/mrr.ts): a subscription counts
 * from a change into ACTIVE or REDEMPTION, at that very instant, until a change out of them.
 */
let database: TestDatabase;
const at = (iso: string) => Date.parse(iso);
const ACCOUNT = 'acct_mrrhistory';

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.account.create({ data: { id: ACCOUNT, name: 'mrr history' } });
  const subscription = async (id: string, monthlyAmount: number, status: string, changes: [string | null, string, string][], currency = 'EUR') => {
    const created = new Date(changes[0]![2]);
    const firstActive = changes.find(([, to]) => to === 'ACTIVE')?.[2];
    await database.db.subscription.create({
      data: {
        id,
        accountId: ACCOUNT,
        channelId: 'chan_x',
        customerId: 'cust_x',
        status,
        currency,
        monthlyAmount,
        createdAt: created,
        updatedAt: created,
        firstActiveAt: firstActive ? new Date(firstActive) : null,
      },
    });
    for (const [index, [from, to, occurred]] of changes.entries()) {
      await database.db.subscriptionStatusChange.create({
        data: { id: `ssch_${id}_${index}`, accountId: ACCOUNT, subscriptionId: id, fromStatus: from, toStatus: to, version: index + 1, occurredAt: new Date(occurred) },
      });
    }
  };
  await subscription('subs_a', 1_000, 'ACTIVE', [[null, 'PENDING', '2026-01-10T00:00:00Z'], ['PENDING', 'ACTIVE', '2026-01-10T00:01:00Z']]);
  // Into dunning (still counts), then UNPAID (stops), then reactivated.
  await subscription('subs_b', 200, 'ACTIVE', [
    [null, 'PENDING', '2026-02-01T00:00:00Z'],
    ['PENDING', 'ACTIVE', '2026-02-01T00:00:00Z'],
    ['ACTIVE', 'REDEMPTION', '2026-03-15T00:00:00Z'],
    ['REDEMPTION', 'UNPAID', '2026-04-01T00:00:00Z'],
    ['UNPAID', 'ACTIVE', '2026-05-20T00:00:00Z'],
  ]);
  // A trial that ends paid, then cancelled.
  await subscription('subs_c', 30, 'CANCELLED', [
    [null, 'TRIALING', '2026-01-01T00:00:00Z'],
    ['TRIALING', 'ACTIVE', '2026-03-01T00:00:00Z'],
    ['ACTIVE', 'CANCELLED', '2026-06-10T00:00:00Z'],
  ]);
  await subscription('subs_usd', 5_000, 'ACTIVE', [[null, 'ACTIVE', '2026-01-01T00:00:00Z']], 'USD');
  // Its first invoice in dunning: never paid, so no revenue recurs, in REDEMPTION or out of it.
  await subscription('subs_d', 7, 'REDEMPTION', [
    [null, 'PENDING', '2026-02-10T00:00:00Z'],
    ['PENDING', 'REDEMPTION', '2026-02-20T00:00:00Z'],
  ]);
});

afterAll(() => database?.drop());

it('sums the monthly amounts of the subscriptions ACTIVE or in REDEMPTION at each instant', async () => {
  const instants = ['2026-01-10T00:00:59Z', '2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z', '2026-03-20T00:00:00Z', '2026-04-01T00:00:00Z', '2026-05-01T00:00:00Z', '2026-06-01T00:00:00Z', '2026-07-01T00:00:00Z'].map(at);
  expect(await mrrAt(database.db, ACCOUNT, 'EUR', instants, at('2026-11-29T00:00:00Z'))).toEqual([
    0, // subs_a activates a second later
    1_200, // subs_b activated at this very instant counts
    1_230, // subs_c's trial ended paid at this instant
    1_230, // subs_b in dunning after it had paid still counts; subs_d in dunning on its first invoice does not
    1_030, // subs_b UNPAID at this instant
    1_030,
    1_230, // subs_b reactivated
    1_200, // subs_c cancelled
  ]);
  expect(await mrrAt(database.db, ACCOUNT, 'USD', [at('2026-03-01T00:00:00Z')], at('2026-11-29T00:00:00Z'))).toEqual([5_000]);
});

it('reads instants from now on from the rows’ status', async () => {
  expect(await mrrAt(database.db, ACCOUNT, 'EUR', [at('2026-12-01T00:00:00Z')], at('2026-11-29T00:00:00Z'))).toEqual([1_200]);
});
