import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDatabase, type Database } from '../../prisma/client';

export interface TestDatabase {
  url: string;
  db: Database;
  drop(): Promise<void>;
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through jest (test/support/global-setup.ts).`);
  return value;
}

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: requireEnv('TEST_ADMIN_DATABASE_URL') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A database of its own for one test file, copied from the migrated template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const template = requireEnv('TEST_TEMPLATE_DATABASE');
  await admin((client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  const url = requireEnv('TEST_ADMIN_DATABASE_URL').replace(/\/[^/]+$/, `/${name}`);
  const db = createDatabase(url);
  return {
    url,
    db,
    drop: async () => {
      await db.$disconnect();
      await admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/** The rows of one statement on `url`, over a connection of its own: for a test that works below Prisma (a schema rolled back, raw rows). */
export async function sqlOn(url: string, text: string, values: unknown[] = []): Promise<any[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}
