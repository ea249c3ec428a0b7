import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export type Database = PrismaClient;
export type { Prisma } from '../generated/prisma/client';

/** The Wasm query compiler with the `pg` driver: no native engine anywhere. */
export function createDatabase(databaseUrl: string, poolSize = 10): Database {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl, max: poolSize }) });
}
