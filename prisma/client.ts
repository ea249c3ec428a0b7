import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

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
  return new PrismaClient({
    adapter: new PrismaPg({
      connectionString: databaseUrl,
      max: poolSize,
      connectionTimeoutMillis: CONNECTION_ACQUIRE_TIMEOUT_MS,
      keepAlive: true,
    }),
    transactionOptions: { maxWait: CONNECTION_ACQUIRE_TIMEOUT_MS, timeout: 30_000 },
  });
}
