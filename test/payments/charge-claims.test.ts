import { chargePayment, PAYMENT_CLAIM_LEASE_MS, type ChargeInput } from '../../services/payments/charge';
import type { PaymentProvider } from '../../services/payments/providers/provider';
import { createProviderRegistry, type ProviderRegistry } from '../../services/payments/providers/registry';
import { createDatabase, type Database } from '../../prisma/client';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { booksOf, seedAccount, seedCustomer, seedInstrument } from './fixtures';

/**
 * docs/payments.md, "Claims": the committed payment row is the claim; no transaction, lock or
 * per-process cap is held while a provider is asked, and answers are recorded by the claim's holder only.
 */
let database: TestDatabase;
let accountId: string;
let channelId: string;
let keys = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ accountId, channelIds: [channelId] } = await seedAccount(database.db));
});

afterAll(() => database?.drop());

async function request(number = '4242424242424242'): Promise<ChargeInput> {
  const customerId = await seedCustomer(database.db, { accountId, channelId });
  const instrument = await seedInstrument(database.db, { accountId, channelId, customerId, number });
  return { accountId, customerId, instrumentId: instrument.id, amount: 10_000, currency: 'USD', idempotencyKey: `claims-${++keys}` };
}

/** The sandbox registry with `before` run ahead of every charge; counts charges and lookups per provider. */
function observed(db: Database, before: (req: Parameters<PaymentProvider['charge']>[0]) => Promise<void> = async () => undefined) {
  const charges: string[] = [];
  const lookups: string[] = [];
  const registry = new Map(
    [...createProviderRegistry(db)].map(([name, provider]): [string, PaymentProvider] => [
      name,
      {
        name,
        lookup: (key, account) => (lookups.push(name), provider.lookup(key, account)),
        charge: async (req) => {
          charges.push(name);
          await before(req);
          return provider.charge(req);
        },
      },
    ]),
  );
  return { charges, lookups, registry: registry as ProviderRegistry };
}

describe('claims of the charge path', () => {
  it('holds no transaction and no lock while a provider is asked: the committed row PROCESSING under an attempt key is the claim', async () => {
    const input = await request();
    const seen: Array<{ status: string; attemptKey: string | null; openTransactions: number; advisoryLocks: number }> = [];
    const { registry } = observed(database.db, async () => {
      const payment = await database.db.payment.findUniqueOrThrow({ where: { accountId_idempotencyKey: { accountId, idempotencyKey: input.idempotencyKey } } });
      const [{ open }] = await database.db.$queryRaw<Array<{ open: number }>>`
        SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`;
      const [{ locks }] = await database.db.$queryRaw<Array<{ locks: number }>>`
        SELECT count(*)::int AS locks FROM pg_locks
        WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
      seen.push({ status: payment.status, attemptKey: payment.attemptKey, openTransactions: open, advisoryLocks: locks });
    });
    const summary = await chargePayment({ db: database.db, providers: registry }, input);
    expect(summary.status).toBe('SUCCEEDED');
    expect(seen).toEqual([{ status: 'PROCESSING', attemptKey: expect.any(String), openTransactions: 0, advisoryLocks: 0 }]);
    const recorded = await database.db.payment.findUniqueOrThrow({ where: { id: summary.paymentId } });
    expect(recorded).toMatchObject({ status: 'SUCCEEDED', attemptKey: null, claimedAt: null });
  });

  it('runs more charges at once than the pool has connections', async () => {
    const db = createDatabase(database.url, 4);
    const inputs = await Promise.all(Array.from({ length: 6 }, () => request()));
    let inFlight = 0;
    let most = 0;
    let release!: () => void;
    const allIn = new Promise<void>((resolve) => (release = resolve));
    const { registry } = observed(db, async () => {
      most = Math.max(most, ++inFlight);
      if (inFlight === inputs.length) release();
      // Each charge waits for all the others to be at their provider (or gives up after 5 s).
      await Promise.race([allIn, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      inFlight--;
    });
    try {
      const summaries = await Promise.all(inputs.map((input) => chargePayment({ db, providers: registry }, input)));
      expect(summaries.map((s) => s.status)).toEqual(inputs.map(() => 'SUCCEEDED'));
      expect(most).toBe(inputs.length);
    } finally {
      await db.$disconnect();
    }
  });

  it('two concurrent charges of one payment ask the provider once and return the same payment', async () => {
    const input = await request();
    const { charges, registry } = observed(database.db, () => new Promise((resolve) => setTimeout(resolve, 300)));
    const [first, second] = await Promise.all([
      chargePayment({ db: database.db, providers: registry }, input),
      chargePayment({ db: database.db, providers: registry }, input),
    ]);
    expect(first).toEqual(second);
    expect(first.status).toBe('SUCCEEDED');
    expect(charges).toEqual(['sandbox-alpha']);
    expect(await booksOf(database.db, first.paymentId)).toHaveLength(1);
  });

  it('a run that died between the provider answer and its record is taken over after the lease, by the provider books, and recorded once', async () => {
    const input = await request();
    // The first run's process "dies" right after the provider charged: its call never returns.
    let wake!: () => void;
    const frozen = observed(database.db);
    const hung = new Map(
      [...frozen.registry].map(([name, provider]): [string, PaymentProvider] => [
        name,
        {
          name,
          lookup: (key, account) => provider.lookup(key, account),
          charge: async (req) => {
            const answer = await provider.charge(req);
            await new Promise<void>((resolve) => (wake = resolve));
            return answer;
          },
        },
      ]),
    ) as ProviderRegistry;
    const dead = chargePayment({ db: database.db, providers: hung }, input);
    const byKey = { accountId_idempotencyKey: { accountId, idempotencyKey: input.idempotencyKey } };
    await waitUntil(async () => (await database.db.sandboxProviderCharge.count({ where: { idempotencyKey: { startsWith: (await database.db.payment.findUnique({ where: byKey }))?.id ?? '-' } } })) === 1);

    // Within the lease a second call waits for the holder; past it, it takes the payment over.
    const later = new Date(Date.now() + PAYMENT_CLAIM_LEASE_MS + 1_000);
    const rescuer = observed(database.db);
    const rescued = await chargePayment({ db: database.db, providers: rescuer.registry, now: () => later }, input);
    expect(rescued).toMatchObject({ status: 'SUCCEEDED', provider: 'sandbox-alpha' });
    expect(rescuer.lookups).toEqual(['sandbox-alpha']);
    expect(rescuer.charges).toEqual([]);

    // The dead run wakes up: its record no longer holds the claim, so it writes nothing and reports the recorded result.
    wake();
    expect(await dead).toEqual(rescued);
    const payment = await database.db.payment.findUniqueOrThrow({ where: byKey });
    expect(payment.attempts).toEqual([expect.objectContaining({ provider: 'sandbox-alpha', outcome: 'APPROVED' })]);
    expect(await booksOf(database.db, payment.id)).toHaveLength(1);
  });
});

async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not reached');
}
