import { recordEvent } from '../../prisma/outbox';
import { createAccount } from '../../scripts/operator/accounts';
import { dispatchOutboxBatch } from '../../services/webhooks/outbox-dispatch';
import { claimDueDeliveries } from '../../services/webhooks/sender-claim';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { countingDatabase } from '../support/query-counter';

/**
 * What an idle worker's two loops send ten times a second each (docs/webhooks.md, "Dispatch"):
 * with nothing to do, one statement and no transaction of their own, instead of the claim's
 * transaction; with something to do, the claim as before.
 */
let database: TestDatabase;
let counted: ReturnType<typeof countingDatabase>;

beforeAll(async () => {
  database = await createTestDatabase();
  counted = countingDatabase(database.url);
});

afterAll(async () => {
  await counted?.db.$disconnect();
  await database?.drop();
});

const claimLimits = () => ({
  now: new Date(),
  leaseUntil: new Date(Date.now() + 60_000),
  endpointCap: 10,
  failingEndpointCap: 1,
  limit: 10,
  held: [],
  answered: [],
});

describe('idle polls', () => {
  it('an empty outbox costs the dispatcher one statement', async () => {
    const { result, count } = await counted.measure(() => dispatchOutboxBatch(counted.db));
    expect(result).toEqual({ events: 0, deliveries: 0 });
    expect(count).toMatchObject({ statements: 1, transactions: 1 });
    expect(count.texts[0]).not.toMatch(/^\s*BEGIN/i);
  });

  it('a waiting event is still claimed and marked dispatched', async () => {
    const { db } = database;
    const account = await createAccount(db, 'idle polls');
    await db.$transaction((tx) => recordEvent(tx, { accountId: account.id, name: 'CustomerCreated', data: { customer: { id: 'cust_idle' } }, occurredAt: new Date() }));

    const { result, count } = await counted.measure(() => dispatchOutboxBatch(counted.db));
    expect(result).toEqual({ events: 1, deliveries: 0 });
    expect(count.texts.some((text) => /FOR UPDATE SKIP LOCKED/.test(text))).toBe(true);
    expect(await db.outboxEvent.count({ where: { dispatchedAt: null } })).toBe(0);

    const again = await counted.measure(() => dispatchOutboxBatch(counted.db));
    expect(again.count.statements).toBe(1);
  });

  it('a sender with no queued delivery claims with one statement and takes no lock', async () => {
    const { result, count } = await counted.measure(() => claimDueDeliveries(counted.db, claimLimits()));
    expect(result).toEqual([]);
    expect(count).toMatchObject({ statements: 1, transactions: 1 });
    expect(count.texts.join('\n')).not.toMatch(/pg_advisory_xact_lock/);
  });
});
