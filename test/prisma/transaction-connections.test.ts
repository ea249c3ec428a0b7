import { readRows, sqlStatement } from '../../prisma/statements';
import { transactionConnection } from '../../prisma/transaction-connections';
import { createAccount } from '../../scripts/operator/accounts';
import { createTestDatabase, type TestDatabase } from '../support/database';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
});

const backend = sqlStatement('test.backend_pid', 'SELECT pg_backend_pid() AS pid');
const rename = sqlStatement('test.rename_account', 'UPDATE accounts SET name = $2 WHERE id = $1 RETURNING name');
const nameOf = sqlStatement('test.name_of_account', 'SELECT name FROM accounts WHERE id = $1');

const prismaPid = async (tx: { $queryRaw: (query: TemplateStringsArray) => Promise<unknown> }) =>
  ((await tx.$queryRaw`SELECT pg_backend_pid() AS pid`) as Array<{ pid: number }>)[0]!.pid;

describe('a transaction’s own connection', () => {
  it('is the one Prisma runs the transaction on, and each open transaction has its own', async () => {
    const { db } = database;
    let release!: () => void;
    const bothOpen = new Promise<void>((resolve) => (release = resolve));
    let opened = 0;
    const pids = await Promise.all(
      [0, 1].map(() =>
        db.$transaction(async (tx) => {
          expect(transactionConnection(tx)?.open).toBe(true);
          const [ours] = await readRows<{ pid: number }>(tx, backend, []);
          if (++opened === 2) release();
          await bothOpen;
          return { ours: ours!.pid, prisma: await prismaPid(tx) };
        }),
      ),
    );
    expect(pids[0]!.ours).toBe(pids[0]!.prisma);
    expect(pids[1]!.ours).toBe(pids[1]!.prisma);
    expect(pids[0]!.ours).not.toBe(pids[1]!.ours);
  });

  it('commits and rolls back what was written on it with the transaction', async () => {
    const { db } = database;
    const account = await createAccount(db, 'Before');
    await expect(
      db.$transaction(async (tx) => {
        expect(await readRows(tx, rename, [account.id, 'Rolled back'])).toEqual([{ name: 'Rolled back' }]);
        expect(await tx.account.findUniqueOrThrow({ where: { id: account.id }, select: { name: true } })).toEqual({ name: 'Rolled back' });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await readRows(db, nameOf, [account.id])).toEqual([{ name: 'Before' }]);

    await db.$transaction(async (tx) => {
      await readRows(tx, rename, [account.id, 'Committed']);
    });
    expect(await readRows(db, nameOf, [account.id])).toEqual([{ name: 'Committed' }]);
  });

  it('takes no statement once its transaction has ended, committed or timed out', async () => {
    const { db } = database;
    const account = await createAccount(db, 'Kept');
    const ended = await db.$transaction(async (tx) => tx);
    expect(transactionConnection(ended)?.open).toBe(false);
    await expect(readRows(ended, rename, [account.id, 'Leaked'])).rejects.toThrow('after its transaction ended');

    let late!: Promise<unknown>;
    await expect(
      db.$transaction(
        async (tx) => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          late = readRows(tx, rename, [account.id, 'Too late']);
          await late;
        },
        { timeout: 50 },
      ),
    ).rejects.toThrow();
    await expect(late).rejects.toThrow('after its transaction ended');
    expect(await readRows(db, nameOf, [account.id])).toEqual([{ name: 'Kept' }]);
  });

  it('leaves the array form and clients outside a transaction alone', async () => {
    const { db } = database;
    const account = await createAccount(db, 'Array');
    const [found] = await db.$transaction([db.account.findUniqueOrThrow({ where: { id: account.id }, select: { name: true } })]);
    expect(found).toEqual({ name: 'Array' });
    expect(transactionConnection(db)).toBeUndefined();
  });
});
