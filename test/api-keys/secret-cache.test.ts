import { authenticate } from '../../api/auth/authenticate';
import { SecretCache } from '../../api/auth/secret-cache';
import { poolOf } from '../../prisma/client';
import { createAccount, createOperatorApiKey } from '../../scripts/operator/accounts';
import { createTestDatabase, type TestDatabase } from '../support/database';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(() => database?.drop());

async function newKey() {
  const account = await createAccount(database.db, 'cache');
  return createOperatorApiKey(database.db, { accountId: account.id, name: 'cached', permissions: ['api-keys:get'] });
}

const at = (ms: number) => new Date(Date.now() + ms);

describe('secret cache', () => {
  it('serves a key from memory for its TTL, then reads the database again', async () => {
    const { row, secret } = await newKey();
    const cache = new SecretCache(5_000);
    const t0 = Date.now();
    await authenticate(database.db, `Bearer ${secret}`, new Date(t0), cache);
    // Revoked behind the cache's back, as another API process would: seen once the TTL is over.
    await database.db.apiKeySecret.updateMany({ where: { apiKeyId: row.id }, data: { revokedAt: new Date() } });
    await expect(authenticate(database.db, `Bearer ${secret}`, new Date(t0 + 4_999), cache)).resolves.toMatchObject({ apiKeyId: row.id });
    await expect(authenticate(database.db, `Bearer ${secret}`, new Date(t0 + 5_000), cache)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('still checks the hash and the rotation expiry on every request', async () => {
    const { row, secret } = await newKey();
    await database.db.apiKeySecret.updateMany({ where: { apiKeyId: row.id }, data: { expiresAt: at(2_000) } });
    const cache = new SecretCache(60_000);
    await authenticate(database.db, `Bearer ${secret}`, at(0), cache);
    const tampered = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    await expect(authenticate(database.db, `Bearer ${tampered}`, at(1), cache)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(authenticate(database.db, `Bearer ${secret}`, at(2_001), cache)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('forgets every secret of a key on demand', async () => {
    const { row, secret } = await newKey();
    const cache = new SecretCache(60_000);
    await authenticate(database.db, `Bearer ${secret}`, at(0), cache);
    await database.db.apiKeySecret.updateMany({ where: { apiKeyId: row.id }, data: { revokedAt: new Date() } });
    cache.forgetApiKey(row.id);
    await expect(authenticate(database.db, `Bearer ${secret}`, at(1), cache)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('reads a key once for all the requests that miss it at the same moment', async () => {
    const { row, secret } = await newKey();
    const cache = new SecretCache(60_000);
    // The secret is read over the pool (prisma/statements.ts): count that statement there.
    const queries = jest.spyOn(poolOf(database.db), 'query');
    const reads = () => queries.mock.calls.filter(([config]) => (config as { name?: string }).name === 'api_key_secrets.authenticate').length;
    try {
      const principals = await Promise.all(Array.from({ length: 20 }, () => authenticate(database.db, `Bearer ${secret}`, at(0), cache)));
      expect(principals.map((p) => p.apiKeyId)).toEqual(Array(20).fill(row.id));
      expect(reads()).toBe(1);
      await authenticate(database.db, `Bearer ${secret}`, at(120_000), cache);
      expect(reads()).toBe(2);
    } finally {
      queries.mockRestore();
    }
  });

  it('does not keep a read that started before the key was forgotten', async () => {
    const { row, secret } = await newKey();
    const cache = new SecretCache(60_000);
    const before = authenticate(database.db, `Bearer ${secret}`, at(0), cache);
    cache.forgetApiKey(row.id);
    await before;
    await database.db.apiKeySecret.updateMany({ where: { apiKeyId: row.id }, data: { revokedAt: new Date() } });
    await expect(authenticate(database.db, `Bearer ${secret}`, at(1), cache)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
