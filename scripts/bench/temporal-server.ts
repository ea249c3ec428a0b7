import { join } from 'node:path';
import { startTemporalDevServer } from '../temporal/cli';
import { startClusterServer } from '../temporal/cluster-server';
import { freePort } from '../net/free-port';
import type { EmbeddedPostgresHandle } from '../postgres/embedded';

/**
 * `BENCH_TEMPORAL`: `dev` (default), the dev server with its SQLite file, as `npm start` runs it;
 * `postgres`, the full server on PostgreSQL (its own databases in the bench's PostgreSQL), as
 * test:cluster and a deployment run it (docs/deployment.md).
 */
export type BenchTemporal = 'dev' | 'postgres';

export function benchTemporalFromEnv(): BenchTemporal {
  const kind = process.env.BENCH_TEMPORAL ?? 'dev';
  if (kind !== 'dev' && kind !== 'postgres') throw new Error(`BENCH_TEMPORAL must be dev or postgres, got ${kind}`);
  return kind;
}

export function benchTemporalLabel(kind: BenchTemporal): string {
  return kind === 'dev' ? 'local Temporal dev server (SQLite)' : 'Temporal server on PostgreSQL';
}

/** The bench's Temporal server, its files under `dir`; the PostgreSQL-backed one in `postgres` on `pgPort`. */
export async function startBenchTemporal(kind: BenchTemporal, postgres: EmbeddedPostgresHandle, pgPort: number, dir: string): Promise<{ address: string; stop(): Promise<void> }> {
  return kind === 'dev'
    ? startTemporalDevServer({ dataDir: join(dir, 'temporal'), port: await freePort(), uiPort: await freePort() })
    : startClusterServer({
        postgres: { host: '127.0.0.1', port: pgPort, user: 'postgres', password: 'postgres', adminUrl: postgres.adminUrl },
        dataDir: join(dir, 'temporal'),
        ui: false,
      });
}
