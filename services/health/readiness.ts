import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import type { Database } from '../../prisma/client';
import { PROJECT_ROOT } from '../project-root';
import { recentResult } from '../recent-result';

/** Each check gives up after this long: a readiness probe must answer before the prober's own timeout. */
export const CHECK_TIMEOUT_MS = 2_000;

/** How long one run of the checks answers every probe (docs/deployment.md, "Health"). */
export const READINESS_TTL_MS = 2_000;

const MIGRATIONS_DIR = join(PROJECT_ROOT, 'prisma', 'migrations');

export interface CheckResult {
  ok: boolean;
  ms: number;
  /** What is wrong, in words safe to show anyone: never a connection string or a stack. */
  problem?: string;
}

export interface Readiness {
  ready: boolean;
  checks: Record<'database' | 'migrations' | 'temporal', CheckResult>;
}

/** Runs a check, cancelled through `signal` once it has taken CHECK_TIMEOUT_MS (no retry left running behind). */
async function timed(check: (signal: AbortSignal) => Promise<string | null>): Promise<CheckResult> {
  const started = performance.now();
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => {
      abort.abort();
      resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`);
    }, CHECK_TIMEOUT_MS);
  });
  try {
    const problem = await Promise.race([check(abort.signal).catch(() => 'unreachable'), timeout]);
    const ms = Math.round(performance.now() - started);
    return problem === null ? { ok: true, ms } : { ok: false, ms, problem };
  } finally {
    clearTimeout(timer);
  }
}

/** Migration folders this build ships that the database has not applied (or applied and rolled back). */
export async function pendingMigrationNames(db: Database): Promise<string[]> {
  const shipped = (await readdir(MIGRATIONS_DIR, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  const applied = await db.$queryRaw<{ migration_name: string }[]>`
    SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
  const done = new Set(applied.map((row) => row.migration_name));
  return shipped.filter((name) => !done.has(name)).sort();
}

/**
 * Whether this process can serve (docs/deployment.md, "Health"): the database answers, it holds
 * every migration this build ships (an API newer than its schema would fail on the first query
 * that needs a new column), and Temporal answers for the namespace.
 */
export async function readiness({ db, temporal }: { db: Database; temporal: Client }): Promise<Readiness> {
  const [database, migrations, temporalCheck] = await Promise.all([
    timed(async () => {
      await db.$queryRaw`SELECT 1`;
      return null;
    }),
    timed(async () => {
      const pending = await pendingMigrationNames(db);
      return pending.length === 0 ? null : `${pending.length} migration(s) not applied, first ${pending[0]}`;
    }),
    timed(async (signal) => {
      await temporal.connection.withAbortSignal(signal, () => temporal.workflowService.describeNamespace({ namespace: temporal.options.namespace }));
      return null;
    }),
  ]);
  const checks = { database, migrations, temporal: temporalCheck };
  return { ready: database.ok && migrations.ok && temporalCheck.ok, checks };
}

/**
 * readiness() for a probe endpoint: the checks run at most once per READINESS_TTL_MS, so probes
 * from any number of balancers, or from anyone who can reach the port, cost the database and
 * Temporal one round of checks per window.
 */
export function recentReadiness(deps: { db: Database; temporal: Client }): () => Promise<Readiness> {
  return recentResult(READINESS_TTL_MS, () => readiness(deps));
}
