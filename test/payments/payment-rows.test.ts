import { chargeableInstrument } from '../../services/payment-instruments/chargeable-instrument';
import { chargePayment } from '../../services/payments/charge';
import { claimPayment, paymentById, paymentByKey } from '../../services/payments/payment-rows';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { seedAccount, seedCustomer, seedInstrument } from './fixtures';

/**
 * The charge path's hand-written statements (services/payments/payment-rows.ts, the instrument
 * read of chargeable-instrument.ts) must give exactly the rows Prisma gives for the same records.
 */
let database: TestDatabase;
let accountId: string;
let channelId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ accountId, channelIds: [channelId] } = await seedAccount(database.db));
});

afterAll(() => database?.drop());

async function charged(number: string, key: string) {
  const { db } = database;
  const customerId = await seedCustomer(db, { accountId, channelId, country: 'DEU' });
  const instrument = await seedInstrument(db, { accountId, channelId, customerId, number, cardholderName: 'Ada Lovelace' });
  const summary = await chargePayment({ db }, { accountId, customerId, instrumentId: instrument.id, amount: 4_321, currency: 'EUR', idempotencyKey: key, reference: 'ref-1' });
  return { customerId, instrumentId: instrument.id, summary };
}

describe('the charge path’s payment rows', () => {
  it('equal Prisma’s for a paid and a declined payment, by id and by key', async () => {
    const { db } = database;
    for (const [number, key, status] of [['4242424242424242', 'rows-paid', 'SUCCEEDED'], ['4000000000000002', 'rows-declined', 'DECLINED']] as const) {
      const { summary } = await charged(number, key);
      expect(summary.status).toBe(status);
      const expected = await db.payment.findUniqueOrThrow({ where: { id: summary.paymentId } });
      expect(await paymentById(db, summary.paymentId)).toEqual(expected);
      expect(await paymentByKey(db, accountId, key)).toEqual(expected);
      expect((expected.attempts as unknown[]).length).toBeGreaterThan(0);
    }
    expect(await paymentByKey(db, accountId, 'rows-unknown')).toBeUndefined();
  });

  it('claims only a PENDING payment or one whose claim is older than the lease, and returns the claimed row', async () => {
    const { db } = database;
    const { summary } = await charged('4242424242424242', 'rows-claim');
    const at = new Date();
    expect(await claimPayment(db, summary.paymentId, 'attempt-a', at, new Date(at.getTime() - 60_000))).toBeUndefined();
    await db.payment.update({ where: { id: summary.paymentId }, data: { status: 'PROCESSING', attemptKey: 'old', claimedAt: new Date(at.getTime() - 120_000) } });
    expect(await claimPayment(db, summary.paymentId, 'attempt-b', at, new Date(at.getTime() - 180_000))).toBeUndefined();
    const claimed = await claimPayment(db, summary.paymentId, 'attempt-c', at, new Date(at.getTime() - 60_000));
    expect(claimed).toEqual(await db.payment.findUniqueOrThrow({ where: { id: summary.paymentId } }));
    expect(claimed).toMatchObject({ status: 'PROCESSING', attemptKey: 'attempt-c', claimedAt: at, updatedAt: at });
  });

  it('reads the instrument as Prisma does, on the pool and in a transaction', async () => {
    const { db } = database;
    const { customerId, instrumentId } = await charged('5555555555554444', 'rows-instrument');
    const expected = await db.paymentInstrument.findUniqueOrThrow({ where: { id: instrumentId } });
    const subject = { accountId, customerId, instrumentId };
    expect(await chargeableInstrument(db, subject)).toEqual({ chargeable: true, instrument: expected });
    expect(await db.$transaction((tx) => chargeableInstrument(tx, subject))).toEqual({ chargeable: true, instrument: expected });
    expect(await chargeableInstrument(db, { ...subject, accountId: 'acct_other' })).toEqual({ chargeable: false, reason: 'NOT_FOUND' });
  });
});
