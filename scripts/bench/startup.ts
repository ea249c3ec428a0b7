import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Connection } from '@temporalio/client';
import { TASK_QUEUE } from '../../domain/workflow-ids';
import { applyPendingMigrations } from '../db/migrations';
import { entryArgs, type EntryRuntime } from '../entry-points';
import { freePort } from '../net/free-port';
import { ensureDatabase, startEmbeddedPostgres } from '../postgres/embedded';
import { startTemporalDevServer } from '../temporal/cli';
import { ownChild } from './processes';

/**
 * `npm run bench:startup` (the npm script runs `npm run build` first): how long the API and the
 * worker take from process start to ready, and how much memory they hold then, run from the
 * sources through tsx (`npm run api`, `npm run worker`) beside the build (`npm run start:api`,
 * `npm run start:worker`), against the same embedded PostgreSQL and Temporal dev server.
 * Ready: the API answers `GET /health` (it listens only once its start-up work is done); the
 * worker, this process's poller shows on its task queue (it has its workflow bundle and runs).
 * RSS is read from /proc SETTLE_MS after ready. BENCH_STARTS (default 5) starts of each, the two
 * runtimes alternating so that the machine's load falls on both alike; medians printed.
 */
const ROOT = resolve(__dirname, '../..');
const STARTS = Number(process.env.BENCH_STARTS ?? 5);
const SETTLE_MS = 2_000;
const READY_WITHIN_MS = 300_000;
const RUNTIMES: EntryRuntime[] = ['source', 'build'];
const PROGRAMS = ['api', 'worker'] as const;
type Program = (typeof PROGRAMS)[number];

interface Start {
  readyS: number;
  rssMiB: number;
}

function log(message: string): void {
  process.stderr.write(`[bench:startup] ${message}\n`);
}

function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb ? Number(kb) / 1024 : NaN;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  return exited;
}

async function until(child: ChildProcess, what: string, ready: () => Promise<boolean>): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before it was ready`);
    if (await ready().catch(() => false)) return;
    if (Date.now() - started > READY_WITHIN_MS) throw new Error(`${what} was not ready within ${READY_WITHIN_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function startOnce(program: Program, runtime: EntryRuntime, env: NodeJS.ProcessEnv, temporal: Connection): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = ownChild(
    spawn(process.execPath, entryArgs(ROOT, program, runtime), {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'silent', WORKER_SHUTDOWN_GRACE_MS: '1000' },
    }),
  );
  try {
    if (program === 'api') {
      await until(child, `${runtime} API`, async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok);
    } else {
      // Pollers stay listed for a while after their worker exits: only this process's counts.
      const identity = `${child.pid}@`;
      await until(child, `${runtime} worker`, async () => {
        const { pollers } = await temporal.workflowService.describeTaskQueue({ namespace: 'default', taskQueue: { name: TASK_QUEUE }, taskQueueType: 1 });
        return (pollers ?? []).some((poller) => poller.identity?.startsWith(identity));
      });
    }
    const readyS = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    return { readyS, rssMiB: rssMiB(child.pid!) };
  } finally {
    await stop(child);
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-startup-'));
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort(), persistent: false });
  let temporal: Awaited<ReturnType<typeof startTemporalDevServer>> | undefined;
  try {
    await ensureDatabase(postgres.adminUrl, 'bench');
    const databaseUrl = postgres.urlFor('bench');
    await applyPendingMigrations(databaseUrl);
    temporal = await startTemporalDevServer({ dataDir: join(dir, 'temporal'), port: await freePort(), uiPort: await freePort() });
    const connection = await Connection.connect({ address: temporal.address });
    const env = {
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporal.address,
      SECRETS_KEY: randomBytes(32).toString('hex'),
      URL_SIGNING_KEY: randomBytes(32).toString('hex'),
    };
    const results = new Map<string, Start[]>();
    const loadBefore = loadavg();
    for (let n = 1; n <= STARTS; n++) {
      for (const program of PROGRAMS) {
        for (const runtime of n % 2 ? RUNTIMES : [...RUNTIMES].reverse()) {
          const start = await startOnce(program, runtime, env, connection);
          results.set(`${program} ${runtime}`, [...(results.get(`${program} ${runtime}`) ?? []), start]);
          log(`${n}/${STARTS} ${program} ${runtime}: ready ${start.readyS.toFixed(2)} s, RSS ${start.rssMiB.toFixed(0)} MiB`);
        }
      }
    }
    const loadAfter = loadavg();
    await connection.close();

    const of = (program: Program, runtime: EntryRuntime) => {
      const starts = results.get(`${program} ${runtime}`)!;
      return { readyS: median(starts.map((s) => s.readyS)), rssMiB: median(starts.map((s) => s.rssMiB)) };
    };
    console.log('');
    console.log(`Start to ready and RSS ${SETTLE_MS / 1000} s after ready, median of ${STARTS} starts each, source (tsx) and build alternating:`);
    for (const program of PROGRAMS) {
      for (const runtime of RUNTIMES) {
        const { readyS, rssMiB } = of(program, runtime);
        const command = runtime === 'source' ? `npm run ${program}` : `npm run start:${program}`;
        console.log(`  ${program.padEnd(7)} ${command.padEnd(22)} ready ${readyS.toFixed(2).padStart(6)} s   RSS ${rssMiB.toFixed(0).padStart(5)} MiB`);
      }
    }
    console.log(`load average (1, 5, 15 min): before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`);
    for (const program of PROGRAMS) {
      const source = of(program, 'source');
      const build = of(program, 'build');
      console.log(`ratio build / source, ${program}: start ${(build.readyS / source.readyS).toFixed(2)}, RSS ${(build.rssMiB / source.rssMiB).toFixed(2)}`);
    }
  } finally {
    await temporal?.stop();
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
