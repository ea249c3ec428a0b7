import { readRows, sqlStatement } from '../../prisma/statements';
import { createAccount } from '../../scripts/operator/accounts';
import { createTestDatabase, type TestDatabase } from '../support/database';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
});

const accountName = sqlStatement('test.account_name', 'SELECT name, to_json(ARRAY[name, id]) AS pair FROM accounts WHERE id = $1');

const preparedHere = sqlStatement('test.prepared_here', 'SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = $1');

describe('readRows', () => {
  it('reads inside a transaction on its connection (seeing its writes) and outside over the pool (seeing only what is committed)', async () => {
    const { db } = database;
    const account = await createAccount(db, 'Before');
    const seen = await db.$transaction(async (tx) => {
      await tx.account.update({ where: { id: account.id }, data: { name: 'During' } });
      return {
        inside: await readRows<{ name: string }>(tx, accountName, [account.id]),
        outside: await readRows<{ name: string }>(db, accountName, [account.id]),
      };
    });
    expect(seen.inside).toEqual([{ name: 'During', pair: ['During', account.id] }]);
    expect(seen.outside).toEqual([{ name: 'Before', pair: ['Before', account.id] }]);
    expect(await readRows(db, accountName, [account.id])).toEqual([{ name: 'During', pair: ['During', account.id] }]);
  });

  it('prepares the statement by name on the pooled connections, many reads at once', async () => {
    const { db } = database;
    const account = await createAccount(db, 'Busy');
    const reads = await Promise.all(Array.from({ length: 40 }, () => readRows<{ name: string }>(db, accountName, [account.id])));
    expect(reads.every((rows) => rows.length === 1 && rows[0]!.name === 'Busy')).toBe(true);
    expect(await readRows(db, accountName, ['acct_unknown'])).toEqual([]);
    // Forty reads at once went through every connection of the pool (10): whichever answers this has it prepared by name.
    const [prepared] = await readRows<{ n: number }>(db, preparedHere, ['test.account_name']);
    expect(prepared!.n).toBe(1);
  });

  it('reads on after a migration changes a selected column’s type under the statements prepared on every connection', async () => {
    const { db } = database;
    await db.$executeRawUnsafe('CREATE TABLE read_rows_probe (id int PRIMARY KEY, v int)');
    await db.$executeRawUnsafe('INSERT INTO read_rows_probe VALUES (1, 7)');
    const probe = sqlStatement('test.probe', 'SELECT v FROM read_rows_probe WHERE id = $1');
    const many = () => Promise.all(Array.from({ length: 40 }, () => readRows<{ v: unknown }>(db, probe, [1])));
    expect((await many()).flat()).toEqual(Array(40).fill({ v: 7 }));
    await db.$executeRawUnsafe('ALTER TABLE read_rows_probe ALTER COLUMN v TYPE text');
    expect((await many()).flat()).toEqual(Array(40).fill({ v: '7' }));
  });

  it('refuses a name declared twice: pg would refuse the second text on a connection that prepared the first', () => {
    expect(() => sqlStatement('test.account_name', 'SELECT 1')).toThrow('declared twice');
  });
});
