import pg from 'pg';

// Any key other than the schema engine's own (72707369): the engine takes that one on a pooled
// connection, which cannot be relied on to hold it for the whole run.
const MIGRATION_LOCK_KEY = 4_715_318_202;

/** Runs `work` while holding a session-level advisory lock that serialises migration runs. */
export async function withMigrationLock<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return await work(client);
  } finally {
    // Closing the session releases the lock.
    await client.end();
  }
}

/** Migrations recorded in `_prisma_migrations` as applied successfully and not rolled back. */
export async function appliedMigrationNames(client: pg.ClientBase): Promise<Set<string>> {
  const { rows: table } = await client.query<{ exists: boolean }>(
    "SELECT to_regclass('_prisma_migrations') IS NOT NULL AS exists",
  );
  if (!table[0]?.exists) return new Set();
  const { rows } = await client.query<{ migration_name: string }>(
    'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
  );
  return new Set(rows.map((row) => row.migration_name));
}
