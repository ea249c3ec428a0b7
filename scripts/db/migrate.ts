/**
 * npm run db:migrate -- create <name>   write a migration for the changes to schema.prisma,
 *                                       then apply pending migrations if DATABASE_URL is set
 * npm run db:migrate -- deploy          apply pending migrations to DATABASE_URL
 * npm run db:migrate -- status          print drift between migrations and schema.prisma, and the
 *                                       migrations DATABASE_URL lacks (if set); exit 1 if any
 *
 * Shadow databases go to SHADOW_ADMIN_DATABASE_URL's server when set (its user must be allowed to
 * CREATE DATABASE), else to a throwaway embedded PostgreSQL, never to DATABASE_URL's server.
 */
import path from 'node:path';
import { applyPendingMigrations, createMigration, pendingMigrations, schemaDrift } from './migrations';
import { migrationsDir, projectRoot } from './paths';

const USAGE = 'Usage: npm run db:migrate -- create <name> | deploy | status';

function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set');
  return url;
}

async function deploy(url: string): Promise<void> {
  const applied = await applyPendingMigrations(url);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'No pending migrations.');
}

async function create(name: string | undefined): Promise<number> {
  if (!name) {
    console.error(USAGE);
    return 2;
  }
  const folder = await createMigration(name, process.env.SHADOW_ADMIN_DATABASE_URL);
  console.log(
    folder
      ? `Created ${path.relative(projectRoot, path.join(migrationsDir, folder, 'migration.sql'))}`
      : 'schema.prisma matches the migrations: nothing to create.',
  );
  if (process.env.DATABASE_URL) await deploy(process.env.DATABASE_URL);
  return 0;
}

async function status(): Promise<number> {
  const drift = await schemaDrift(process.env.SHADOW_ADMIN_DATABASE_URL);
  console.log(drift ? `schema.prisma differs from the migrations by:\n${drift}` : 'Migrations match schema.prisma.');
  const url = process.env.DATABASE_URL;
  if (!url) return drift ? 1 : 0;
  const pending = await pendingMigrations(url);
  console.log(pending.length ? `Pending: ${pending.join(', ')}` : 'Database is up to date.');
  return drift || pending.length ? 1 : 0;
}

async function main([command, ...args]: string[]): Promise<number> {
  switch (command) {
    case 'create':
      return create(args[0]);
    case 'deploy':
      await deploy(databaseUrl());
      return 0;
    case 'status':
      return status();
    default:
      console.error(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
