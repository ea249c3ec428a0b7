import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { TASK_QUEUE } from '../../domain/workflow-ids';
import { applyPendingMigrations } from '../db/migrations';
import { freePort } from '../net/free-port';
import { ensureDatabase, startEmbeddedPostgres } from '../postgres/embedded';
import { startTemporalDevServer } from '../temporal/cli';

/**
 * `npm run bench:worker-memory`: the resident memory at rest of the platform worker
 * (`npm run worker`, worker/main.ts, in a process of its own) beside a bare worker hosting one
 * no-op workflow, both against the same embedded PostgreSQL and Temporal dev server as
 * `npm start` runs. Each is sampled from /proc once it polls its task queue and has settled.
 */
const ROOT = resolve(__dirname, '../..');
const BARE_QUEUE = 'bench-bare-worker';
const SETTLE_MS = Number(process.env.BENCH_SETTLE_S ?? 20) * 1000;
const SAMPLE_MS = Number(process.env.BENCH_SAMPLE_S ?? 10) * 1000;

function log(message: string): void {
  process.stderr.write(`[bench:worker-memory] ${message}\n`);
}

/** Resident set size of a process in MiB, from /proc (Linux). */
function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb ? Number(kb) / 1024 : NaN;
}

async function runBareWorker(address: string): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({ connection, taskQueue: BARE_QUEUE, workflowsPath: require.resolve('./noop-workflow') });
  await worker.run();
  await connection.close();
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  return exited;
}

/** Until a worker polls `taskQueue` for workflow tasks: it has bundled its workflows and runs. */
async function waitForPoller(connection: Connection, taskQueue: string, child: ChildProcess, what: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode} before polling`);
    const { pollers } = await connection.workflowService.describeTaskQueue({ namespace: 'default', taskQueue: { name: taskQueue }, taskQueueType: 1 });
    if (pollers && pollers.length > 0) return (Date.now() - started) / 1000;
    if (Date.now() - started > 300_000) throw new Error(`${what} did not poll ${taskQueue} within 5 minutes`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface Sampled {
  median: number;
  max: number;
}

async function sample(pids: number[], ms: number): Promise<Sampled[]> {
  const samples: number[][] = pids.map(() => []);
  for (const end = Date.now() + ms; Date.now() < end; ) {
    pids.forEach((pid, i) => samples[i]!.push(rssMiB(pid)));
    await new Promise((r) => setTimeout(r, 250));
  }
  return samples.map((values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { median: sorted[Math.floor(sorted.length / 2)]!, max: sorted[sorted.length - 1]! };
  });
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-worker-memory-'));
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort(), persistent: false });
  const children: ChildProcess[] = [];
  let temporal: Awaited<ReturnType<typeof startTemporalDevServer>> | undefined;
  try {
    await ensureDatabase(postgres.adminUrl, 'bench');
    const databaseUrl = postgres.urlFor('bench');
    await applyPendingMigrations(databaseUrl);
    temporal = await startTemporalDevServer({ dataDir: join(dir, 'temporal'), port: await freePort(), uiPort: await freePort() });
    const connection = await Connection.connect({ address: temporal.address });

    const bare = spawn(process.execPath, ['--import', 'tsx', __filename, '--bare-worker', temporal.address], { cwd: ROOT, stdio: 'inherit' });
    children.push(bare);
    const bareStart = await waitForPoller(connection, BARE_QUEUE, bare, 'the bare worker');
    log(`bare worker polling after ${bareStart.toFixed(1)} s`);

    const platform = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'worker/main.ts')], {
      cwd: ROOT,
      stdio: 'inherit',
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        TEMPORAL_ADDRESS: temporal.address,
        SECRETS_KEY: process.env.SECRETS_KEY ?? randomBytes(32).toString('hex'),
        URL_SIGNING_KEY: process.env.URL_SIGNING_KEY ?? randomBytes(32).toString('hex'),
      },
    });
    children.push(platform);
    const platformStart = await waitForPoller(connection, TASK_QUEUE, platform, 'the platform worker');
    log(`platform worker polling after ${platformStart.toFixed(1)} s; settling ${SETTLE_MS / 1000} s, then sampling ${SAMPLE_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const [platformRss, bareRss] = await sample([platform.pid!, bare.pid!], SAMPLE_MS);
    await connection.close();

    console.log('');
    console.log(`Worker resident memory at rest (${SETTLE_MS / 1000} s after it polls, median of ${SAMPLE_MS / 1000} s of samples):`);
    console.log(`  platform worker (npm run worker, started in ${platformStart.toFixed(1)} s)   ${platformRss!.median.toFixed(0)} MiB (max ${platformRss!.max.toFixed(0)})`);
    console.log(`  bare worker, one no-op workflow (started in ${bareStart.toFixed(1)} s)      ${bareRss!.median.toFixed(0)} MiB (max ${bareRss!.max.toFixed(0)})`);
    console.log(`ratio platform / bare worker RSS: ${(platformRss!.median / bareRss!.median).toFixed(2)}`);
  } finally {
    for (const child of children.reverse()) await stopChild(child);
    await temporal?.stop();
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--bare-worker') {
  runBareWorker(process.argv[3]!).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
