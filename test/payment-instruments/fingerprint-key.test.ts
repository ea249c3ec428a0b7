import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import { cardFingerprintKey, sealClearFingerprintKeys } from '../../api/secrets/card-fingerprint-key';
import { secretsKey } from '../../services/secrets/secrets-key';
import { newId } from '../../domain/ids';
import { openSecret } from '../../domain/secret-box';
import type { Database } from '../../prisma/client';
import { createAccount, createChannel, createOperatorApiKey } from '../../scripts/operator/accounts';
import { createTestDatabase } from '../support/database';
import { usePlatform } from '../support/platform';

/**
 * The card fingerprint key never lies in clear in the database: beside brand, last four and
 * expiry, a clear key would let a dump be brute-forced back to card numbers.
 */
const platform = usePlatform();

const nextYear = new Date().getUTCFullYear() + 1;

interface KeyColumns {
  clear: Uint8Array | null;
  sealed: Uint8Array | null;
}

/** What a dump of the accounts table shows, read with SQL rather than through the client. */
async function keyColumns(db: Database, accountId: string): Promise<KeyColumns> {
  const [row] = await db.$queryRaw<KeyColumns[]>`SELECT fingerprint_key AS clear, fingerprint_key_sealed AS sealed FROM accounts WHERE id = ${accountId}`;
  return row!;
}

/** An account as a version before the sealing left it: its key in clear, in fingerprint_key. */
async function legacyAccount(db: Database): Promise<{ id: string; clearKey: Buffer }> {
  const id = newId('account');
  const clearKey = randomBytes(32);
  await db.$executeRaw`INSERT INTO accounts (id, name, fingerprint_key, updated_at) VALUES (${id}, 'Before sealing', ${new Uint8Array(clearKey)}, now())`;
  return { id, clearKey };
}

const fingerprintUnder = (key: Uint8Array, digits: string) => createHmac('sha256', key).update(digits).digest('base64url');

async function tokenizeFor(accountId: string, number: string): Promise<string> {
  const channel = await createChannel(platform.db, accountId, 'Shop');
  const { secret } = await createOperatorApiKey(platform.db, { accountId, name: 'backend' });
  const customer = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'k@example.com', channel_id: channel.id }, { secret });
  expect(customer.status).toBe(200);
  const res = await platform.call(
    '/v2/payment-instruments/tokenize',
    { customer_id: customer.body.id, card: { number, exp_month: 3, exp_year: nextYear } },
    { secret },
  );
  expect(res.status).toBe(200);
  return res.body.card.fingerprint;
}

describe('card fingerprint key', () => {
  it('is stored sealed with SECRETS_KEY, never in clear, and the fingerprint is keyed with what it seals', async () => {
    const account = await createAccount(platform.db, 'New merchant');
    const fingerprint = await tokenizeFor(account.id, '4242424242424242');

    const { clear, sealed } = await keyColumns(platform.db, account.id);
    expect(clear).toBeNull();
    expect(sealed).not.toBeNull();
    const key = Buffer.from(openSecret(secretsKey(), `card-fingerprint-key:${account.id}`, sealed!), 'hex');
    expect(key).toHaveLength(32);
    expect(fingerprint).toBe(fingerprintUnder(key, '4242424242424242'));
    expect(Buffer.from(sealed!).includes(key)).toBe(false);
    expect(() => openSecret(randomBytes(32), `card-fingerprint-key:${account.id}`, sealed!)).toThrow();
  });

  it('is bound to its account: a sealed key copied onto another account does not open there', async () => {
    const owner = await createAccount(platform.db, 'Owner');
    const thief = await createAccount(platform.db, 'Thief');
    await cardFingerprintKey(platform.db, owner.id, secretsKey());
    const { sealed } = await keyColumns(platform.db, owner.id);
    await platform.db.$executeRaw`UPDATE accounts SET fingerprint_key_sealed = ${sealed} WHERE id = ${thief.id}`;
    await expect(cardFingerprintKey(platform.db, thief.id, secretsKey())).rejects.toThrow();
  });

  it('of an account from before the sealing is sealed on first use, unchanged: its stored fingerprints still match', async () => {
    const { id, clearKey } = await legacyAccount(platform.db);
    const fingerprint = await tokenizeFor(id, '4000000000000002');
    expect(fingerprint).toBe(fingerprintUnder(clearKey, '4000000000000002'));
    const { clear, sealed } = await keyColumns(platform.db, id);
    expect(clear).toBeNull();
    expect(Buffer.from(openSecret(secretsKey(), `card-fingerprint-key:${id}`, sealed!), 'hex').equals(clearKey)).toBe(true);
  });

  it('is made once when requests race for a new account', async () => {
    const account = await createAccount(platform.db, 'Racing');
    const keys = await Promise.all(Array.from({ length: 8 }, () => cardFingerprintKey(platform.db, account.id, secretsKey())));
    expect(new Set(keys.map((key) => key.toString('hex'))).size).toBe(1);
    expect(await cardFingerprintKey(platform.db, account.id, secretsKey())).toEqual(keys[0]);
  });

  it('left in clear by an older version is sealed for every account at once, the same key each', async () => {
    const legacy = [await legacyAccount(platform.db), await legacyAccount(platform.db)];
    expect(await sealClearFingerprintKeys(platform.db, secretsKey())).toBe(2);
    for (const { id, clearKey } of legacy) {
      const { clear, sealed } = await keyColumns(platform.db, id);
      expect(clear).toBeNull();
      expect(Buffer.from(openSecret(secretsKey(), `card-fingerprint-key:${id}`, sealed!), 'hex').equals(clearKey)).toBe(true);
    }
    expect(await sealClearFingerprintKeys(platform.db, secretsKey())).toBe(0);
  });

  it('left in clear is sealed when the API starts (npm run api), before any request', async () => {
    const database = await createTestDatabase();
    try {
      const { id, clearKey } = await legacyAccount(database.db);
      const root = path.resolve(__dirname, '..', '..');
      const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['api/main.ts'], {
        cwd: root,
        env: {
          PATH: process.env.PATH!,
          HOME: process.env.HOME!,
          DATABASE_URL: database.url,
          TEMPORAL_ADDRESS: '127.0.0.1:1',
          PORT: '0',
          SECRETS_KEY: process.env.SECRETS_KEY!,
          URL_SIGNING_KEY: randomBytes(32).toString('hex'),
        },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      try {
        const deadline = Date.now() + 30_000;
        let columns = await keyColumns(database.db, id);
        while (columns.clear !== null && child.exitCode === null && Date.now() < deadline) {
          await new Promise((done) => setTimeout(done, 200));
          columns = await keyColumns(database.db, id);
        }
        expect(stderr).toBe('');
        expect(columns.clear).toBeNull();
        expect(Buffer.from(openSecret(secretsKey(), `card-fingerprint-key:${id}`, columns.sealed!), 'hex').equals(clearKey)).toBe(true);
      } finally {
        child.kill('SIGTERM');
        await new Promise((done) => (child.exitCode === null ? child.once('exit', done) : done(undefined)));
      }
    } finally {
      await database.drop();
    }
  }, 60_000);
});
