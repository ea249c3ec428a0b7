/**
 * Prisma migrations without Prisma's native schema engine: the Wasm engine does the work in a
 * child process (see engine-process.ts) and writes the standard `_prisma_migrations` table and
 * `prisma/migrations` layout, so `prisma migrate deploy` remains usable wherever the native engine is.
 *
 * Shadow databases (needed to replay the migrations for a diff) are created and dropped on the
 * server of `databaseUrlForShadow`, whose user must be allowed to CREATE DATABASE; without it a
 * throwaway embedded PostgreSQL is started for the call.
 */
import pg from 'pg';
import { runEngine } from './engine-process';
import { appliedMigrationNames, withMigrationLock } from './migration-history';
import { migrationNames, writeMigration } from './migrations-dir';

/** Applies the migrations `databaseUrl` lacks, one caller at a time; returns their names. */
export async function applyPendingMigrations(databaseUrl: string): Promise<string[]> {
  const local = await migrationNames();
  return withMigrationLock(databaseUrl, async (client) => {
    const applied = await appliedMigrationNames(client);
    // Skips starting the engine on the common path: every start and test run comes through here.
    if (local.every((name) => applied.has(name))) return [];
    return runEngine({ command: 'apply', databaseUrl });
  });
}

/** Migrations in prisma/migrations that `databaseUrl` has not applied successfully. */
export async function pendingMigrations(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const applied = await appliedMigrationNames(client);
    return (await migrationNames()).filter((name) => !applied.has(name));
  } finally {
    await client.end();
  }
}

/** SQL that would bring the migrations up to schema.prisma; '' when they agree. */
export function schemaDrift(databaseUrlForShadow?: string): Promise<string> {
  return runEngine({ command: 'diff', shadowServerUrl: databaseUrlForShadow });
}

function folderName(name: string, now: Date): string {
  const slug = name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!slug) throw new Error(`Migration name "${name}" has no letters or digits`);
  // Prisma's layout: UTC timestamp to the second, then the name.
  const timestamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  return `${timestamp}_${slug}`;
}

/**
 * Writes prisma/migrations/<timestamp>_<name>/migration.sql from the difference between the
 * existing migrations and schema.prisma. Returns the folder name, or null when there is none.
 */
export async function createMigration(name: string, databaseUrlForShadow?: string): Promise<string | null> {
  const folder = folderName(name, new Date());
  const script = await schemaDrift(databaseUrlForShadow);
  if (!script) return null;
  await writeMigration(folder, script);
  return folder;
}
