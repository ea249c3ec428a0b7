import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../net/free-port';
import { startEmbeddedPostgres } from '../postgres/embedded';

export interface ThrowawayPostgres {
  /** Superuser URL of the `postgres` database. */
  url: string;
  /** Stops the server and deletes its data. */
  stop(): Promise<void>;
}

/** Starts an embedded PostgreSQL in a temporary directory, for work that needs any server at all. */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'prisma-shadow-'));
  try {
    const server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: await freePort(), persistent: false });
    return {
      url: server.adminUrl,
      stop: async () => {
        await server.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
