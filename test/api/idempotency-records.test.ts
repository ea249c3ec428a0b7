import { findIdempotencyRecord, insertIdempotencyRecord, lockIdempotencyKey } from '../../api/idempotency/records';
import { createAccount, createOperatorApiKey } from '../../scripts/operator/accounts';
import { createTestDatabase, type TestDatabase } from '../support/database';

/**
 * The idempotency records' declared statements: what is stored reads back exactly as Prisma reads
 * it, on the pool and in a transaction; the insert commits or rolls back with its transaction;
 * and the key's lock holds a second transaction until the first ends.
 */
let database: TestDatabase;
let apiKeyId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const account = await createAccount(database.db, 'Idempotency records');
  apiKeyId = (await createOperatorApiKey(database.db, { accountId: account.id, name: 'root' })).row.id;
});

afterAll(async () => {
  await database?.drop();
});

const record = (key: string, responseBody: unknown) => ({
  apiKeyId,
  key,
  operation: 'invoices/pay',
  requestHash: 'a'.repeat(64),
  responseStatus: 422,
  responseBody: responseBody as never,
  createdAt: new Date('2026-11-27T06:00:00.123456Z'),
  expiresAt: new Date('2026-11-28T06:00:00.123Z'),
});

describe('idempotency records', () => {
  const prismaRecord = (key: string) => database.db.idempotencyRecord.findUnique({ where: { apiKeyId_key: { apiKeyId, key } } });

  it('reads back what it stored exactly as Prisma does, and nothing for a key never stored', async () => {
    const body = { code: 'CARD_DECLINED', message: 'Déclinée ✓', context: { attempts: [1, 2], nested: { empty: null } } };
    await database.db.$transaction((tx) => insertIdempotencyRecord(tx, record('stored', body)));
    const expected = await prismaRecord('stored');
    expect(expected).toMatchObject({ responseStatus: 422, responseBody: body, operation: 'invoices/pay' });
    expect(await findIdempotencyRecord(database.db, apiKeyId, 'stored')).toEqual(expected);
    expect(await database.db.$transaction((tx) => findIdempotencyRecord(tx, apiKeyId, 'stored'))).toEqual(expected);
    expect(await findIdempotencyRecord(database.db, apiKeyId, 'never')).toBeNull();
  });

  it('stores nothing when its transaction rolls back', async () => {
    await expect(
      database.db.$transaction(async (tx) => {
        await insertIdempotencyRecord(tx, record('rolled-back', { id: 'x' }));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await prismaRecord('rolled-back')).toBeNull();
  });

  it('holds a second transaction on the same key until the first commits, then shows it the stored answer', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const first = database.db.$transaction(async (tx) => {
      await lockIdempotencyKey(tx, apiKeyId, 'contended');
      locked();
      await held;
      await insertIdempotencyRecord(tx, record('contended', { id: 'first' }));
    });
    await isLocked;
    let secondSaw: unknown = 'not yet';
    const second = database.db.$transaction(async (tx) => {
      await lockIdempotencyKey(tx, apiKeyId, 'contended');
      secondSaw = (await findIdempotencyRecord(tx, apiKeyId, 'contended'))?.responseBody ?? null;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(secondSaw).toBe('not yet');
    release();
    await Promise.all([first, second]);
    expect(secondSaw).toEqual({ id: 'first' });
  });
});
