import { Pool, type PoolClient } from 'pg';
import { PrismaClient } from '../generated/prisma/client';
import { ConnectionSharingPg, shareTransactionConnections } from './transaction-connections';

export type Database = PrismaClient;
export type { Prisma } from '../generated/prisma/client';

/** How long a query waits for a pooled connection before failing (and its activity retrying). */
export const CONNECTION_ACQUIRE_TIMEOUT_MS = 10_000;

/**
 * The Wasm query compiler with the `pg` driver: no native engine anywhere.
 *
 * With a driver adapter, pooling is pg-pool's, whose default waits for a free connection
 * forever: a starved pool hangs an activity silently until its Temporal timeout. A bounded
 * wait turns that into an error that is retried. Transaction limits are raised above Prisma's
 * 2 s / 5 s defaults because a transaction timing out while its COMMIT is in flight can hand a
 * busy connection back to the pool twice (prisma/orm#29952); on a loaded machine those defaults
 * are reached by transactions that are merely slow, not stuck.
 */
export function createDatabase(databaseUrl: string, poolSize = 10): Database {
  const pool = new Pool({ connectionString: databaseUrl, max: poolSize, connectionTimeoutMillis: CONNECTION_ACQUIRE_TIMEOUT_MS, keepAlive: true });
  return databaseOnPool(pool);
}

/** The client of `createDatabase` on a pool made elsewhere (a test's counting pool); the client ends the pool when disconnected. */
export function databaseOnPool(pool: Pool): Database {
  pool.on('connect', keepDroppedConnectionFromEndingProcess);
  const db = new PrismaClient({
    adapter: new ConnectionSharingPg(pool, { disposeExternalPool: true }),
    transactionOptions: { maxWait: CONNECTION_ACQUIRE_TIMEOUT_MS, timeout: 30_000 },
  });
  shareTransactionConnections(db);
  // Prisma listens on the pool and ends it only once a query of its own has connected it; a client
  // that sends only declared statements (prisma/statements.ts) over the pool needs both as well.
  pool.on('error', () => undefined);
  const disconnect = db.$disconnect.bind(db);
  db.$disconnect = async () => {
    await disconnect();
    if (!pool.ended) await pool.end();
  };
  pools.set(db, pool);
  return db;
}

const pools = new WeakMap<Database, Pool>();

/**
 * A connection PostgreSQL drops (a restart, a failover, `pg_terminate_backend`) emits 'error' on
 * its client, and an 'error' nobody listens to ends the process. pg-pool listens only while a
 * client is idle (and passes the error on to the pool's own listeners), Prisma only during its
 * transactions: a client checked out by `poolOf` (the
 * webhook sender's claim, a streamed export) had no listener, and a PostgreSQL restart killed the
 * worker holding one. The error itself is not lost: the statement in flight fails with it, and
 * the pool discards the client on release because it is no longer queryable.
 */
function keepDroppedConnectionFromEndingProcess(client: PoolClient): void {
  client.on('error', () => undefined);
}

/**
 * The pg pool behind `db`, for the few reads Prisma cannot express: a statement whose rows are
 * streamed as they arrive (prisma/streamed-rows.ts). Its connections are the same as Prisma's.
 */
export function poolOf(db: Database): Pool {
  const pool = ownPoolOf(db);
  if (!pool) throw new Error('This client was not made by createDatabase: it has no pool of its own to stream rows from.');
  return pool;
}

/** The pool behind `db` when it is a client of `createDatabase`; undefined for a transaction's client. */
export function ownPoolOf(db: object): Pool | undefined {
  return pools.get(db as Database);
}
