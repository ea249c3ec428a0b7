import { AsyncLocalStorage } from 'node:async_hooks';
import { PrismaPg } from '@prisma/adapter-pg';
import type { Transaction } from '@prisma/driver-adapter-utils';
import type { PoolClient } from 'pg';
import type { PrismaClient } from '../generated/prisma/client';

/** The pg connection of one interactive transaction, usable until Prisma ends that transaction. */
export interface TransactionConnection {
  readonly client: PoolClient;
  open: boolean;
}

/** Set while a callback transaction opens: the adapter leaves the connection it took here. */
const opening = new AsyncLocalStorage<{ connection?: TransactionConnection }>();
const connections = new WeakMap<object, TransactionConnection>();

/**
 * Prisma's pg adapter, telling each interactive transaction's connection to whoever opened it.
 * A statement sent through Prisma in a transaction costs the process about 0.2 ms of CPU
 * (issue 13: five raw reads in a transaction, 1.15–1.40 ms of CPU through `$queryRawUnsafe`,
 * 0.50–0.61 ms on the connection itself); `prisma/statements.ts` sends its declared statements
 * on that connection instead, inside the same transaction.
 */
export class ConnectionSharingPg extends PrismaPg {
  override async connect(): ReturnType<PrismaPg['connect']> {
    const adapter = await super.connect();
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => shared(await start(isolationLevel));
    return adapter;
  }
}

function shared(transaction: Transaction): Transaction {
  const holder = opening.getStore();
  // PgTransaction keeps its pool client as `client` (@prisma/adapter-pg 7.10, pinned); without one,
  // statements go through Prisma as before, and test/prisma/transaction-connections.test.ts fails.
  const client = (transaction as unknown as { client?: PoolClient }).client;
  if (!holder || !client || typeof client.query !== 'function') return transaction;
  const connection: TransactionConnection = { client, open: true };
  holder.connection = connection;
  // Closed before Prisma sends COMMIT or ROLLBACK (a timeout's included) and hands the client
  // back to the pool, so nothing of ours runs on it outside this transaction.
  const executeRaw = transaction.executeRaw.bind(transaction);
  transaction.executeRaw = (query) => {
    if (/^\s*(COMMIT|ROLLBACK)\b/i.test(query.sql)) connection.open = false;
    return executeRaw(query);
  };
  for (const end of ['commit', 'rollback'] as const) {
    const close = transaction[end].bind(transaction);
    transaction[end] = () => {
      connection.open = false;
      return close();
    };
  }
  return transaction;
}

/**
 * Makes `db.$transaction(callback)` record the connection of each transaction it opens against
 * the transaction client it passes to the callback (the array form is left as it is).
 */
export function shareTransactionConnections(db: PrismaClient): void {
  const begin = db.$transaction.bind(db) as (arg: unknown, options?: unknown) => Promise<unknown>;
  const transaction = (arg: unknown, options?: unknown) => {
    if (typeof arg !== 'function') return begin(arg, options);
    const holder: { connection?: TransactionConnection } = {};
    return opening.run(holder, () =>
      begin(async (tx: object) => {
        if (holder.connection) connections.set(tx, holder.connection);
        return (arg as (tx: object) => Promise<unknown>)(tx);
      }, options),
    );
  };
  Object.defineProperty(db, '$transaction', { value: transaction, configurable: true, writable: true });
}

/** The connection of the transaction whose client `tx` is, while it is open; undefined for anything else. */
export function transactionConnection(tx: object): TransactionConnection | undefined {
  return connections.get(tx);
}
