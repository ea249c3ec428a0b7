import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { TASK_QUEUE } from '../../domain/workflow-ids';
import type { paymentInstrumentExpiryWorkflow } from '../../workflows/payment-instrument-expiry';
import type { noopWorkflow } from './noop-workflow';
import { cpuSample } from './machine-cpu';
import { ownChild } from './processes';
import { applyPendingMigrations } from '../db/migrations';
import { freePort } from '../net/free-port';
import { ensureDatabase, startEmbeddedPostgres } from '../postgres/embedded';
import { startTemporalDevServer } from '../temporal/cli';

/**
 * `npm run bench:worker-memory`: the resident memory at rest of the platform worker
 * (`npm run worker`, worker/main.ts, in a process of its own) beside a bare worker hosting one
 * no-op workflow, both against the same embedded PostgreSQL and Temporal dev server as
 * `npm start` runs. Each is sampled from /proc once it polls its task queue and has settled,
 * first with no workflow, then with BENCH_IDLE_WORKFLOWS (default 1,000) idle ones each: on the
 * platform worker card-expiry workflows waiting for a card's expiry years ahead (one per saved
 * card), on the bare worker no-op workflows waiting as long. Over the same samples it reads each
 * process's CPU: what a worker costs the machine while nothing happens (the platform's outbox
 * dispatcher and webhook sender poll the database beside Temporal's long polls).
 */
const ROOT = resolve(__dirname, '../..');
const BARE_QUEUE = 'bench-bare-worker';
const SETTLE_MS = Number(process.env.BENCH_SETTLE_S ?? 20) * 1000;
const SAMPLE_MS = Number(process.env.BENCH_SAMPLE_S ?? 10) * 1000;
const IDLE_WORKFLOWS = Number(process.env.BENCH_IDLE_WORKFLOWS ?? 1_000);
const IDLE_FOR_MS = 5 * 365 * 86_400_000;
const START_CONCURRENCY = 20;

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
  /** CPU the process used over the samples, milliseconds per second. */
  cpuMsPerS: number;
}

async function sample(pids: number[], ms: number): Promise<Sampled[]> {
  const samples: number[][] = pids.map(() => []);
  const cpuFrom = pids.map((pid) => cpuSample(pid));
  for (const end = Date.now() + ms; Date.now() < end; ) {
    pids.forEach((pid, i) => samples[i]!.push(rssMiB(pid)));
    await new Promise((r) => setTimeout(r, 250));
  }
  const cpuTo = pids.map((pid) => cpuSample(pid));
  return samples.map((values, i) => {
    const sorted = [...values].sort((a, b) => a - b);
    const seconds = (cpuTo[i]!.at - cpuFrom[i]!.at) / 1000;
    return { median: sorted[Math.floor(sorted.length / 2)]!, max: sorted[sorted.length - 1]!, cpuMsPerS: ((cpuTo[i]!.processS - cpuFrom[i]!.processS) * 1000) / seconds };
  });
}

/** Starts `count` workflows `concurrency` at a time, then waits until each has run its first task (its timer is set). */
async function startIdle(client: Client, count: number, start: (i: number) => Promise<string>): Promise<number> {
  const started = Date.now();
  const ids: string[] = [];
  for (let i = 0; i < count; i += START_CONCURRENCY) {
    ids.push(...(await Promise.all(Array.from({ length: Math.min(START_CONCURRENCY, count - i) }, (_, j) => start(i + j)))));
  }
  for (const id of ids.slice(-START_CONCURRENCY)) {
    for (;;) {
      const { raw } = await client.workflow.getHandle(id).describe();
      if ((raw.pendingWorkflowTask ?? null) === null && Number(raw.workflowExecutionInfo?.historyLength ?? 0) >= 5) break;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return (Date.now() - started) / 1000;
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

    const bare = ownChild(spawn(process.execPath, ['--import', 'tsx', __filename, '--bare-worker', temporal.address], { cwd: ROOT, stdio: 'inherit' }));
    children.push(bare);
    const bareStart = await waitForPoller(connection, BARE_QUEUE, bare, 'the bare worker');
    log(`bare worker polling after ${bareStart.toFixed(1)} s`);

    // BENCH_WORKER_NODE_ARGS: e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the platform worker at rest.
    const workerNodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const platform = ownChild(spawn(process.execPath, [...workerNodeArgs, '--import', 'tsx', join(ROOT, 'worker/main.ts')], {
      cwd: ROOT,
      stdio: 'inherit',
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        TEMPORAL_ADDRESS: temporal.address,
        SECRETS_KEY: process.env.SECRETS_KEY ?? randomBytes(32).toString('hex'),
        URL_SIGNING_KEY: process.env.URL_SIGNING_KEY ?? randomBytes(32).toString('hex'),
      },
    }));
    children.push(platform);
    const platformStart = await waitForPoller(connection, TASK_QUEUE, platform, 'the platform worker');
    log(`platform worker polling after ${platformStart.toFixed(1)} s; settling ${SETTLE_MS / 1000} s, then sampling ${SAMPLE_MS / 1000} s`);
    const pids = [platform.pid!, bare.pid!];
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const empty = await sample(pids, SAMPLE_MS);

    const client = new Client({ connection });
    const until = Date.now() + IDLE_FOR_MS;
    const bareSeconds = await startIdle(client, IDLE_WORKFLOWS, async (i) =>
      (await client.workflow.start<typeof noopWorkflow>('noopWorkflow', { taskQueue: BARE_QUEUE, workflowId: `bench-idle-${i}`, args: [until - Date.now()] })).workflowId,
    );
    const platformSeconds = await startIdle(client, IDLE_WORKFLOWS, async (i) =>
      (
        await client.workflow.start<typeof paymentInstrumentExpiryWorkflow>('paymentInstrumentExpiryWorkflow', {
          taskQueue: TASK_QUEUE,
          workflowId: `pi_bench${i}/expiry`,
          args: [{ paymentInstrumentId: `pi_bench${i}`, expiresAt: new Date(until).toISOString() }],
        })
      ).workflowId,
    );
    log(`${IDLE_WORKFLOWS} idle workflows on each (bare ${bareSeconds.toFixed(1)} s, platform ${platformSeconds.toFixed(1)} s); settling ${SETTLE_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const idle = await sample(pids, SAMPLE_MS);
    await connection.close();

    const row = (label: string, [platformRss, bareRss]: Sampled[]) =>
      console.log(`  ${label.padEnd(34)} platform ${platformRss!.median.toFixed(0).padStart(5)} MiB (max ${platformRss!.max.toFixed(0)})   bare ${bareRss!.median.toFixed(0).padStart(5)} MiB (max ${bareRss!.max.toFixed(0)})   ratio ${(platformRss!.median / bareRss!.median).toFixed(2)}`);
    console.log('');
    console.log(`Worker resident memory at rest, ${SETTLE_MS / 1000} s after the last change, median of ${SAMPLE_MS / 1000} s of samples:`);
    console.log(`  platform: npm run worker (polling ${platformStart.toFixed(1)} s after its start); bare: one no-op workflow (polling after ${bareStart.toFixed(1)} s)`);
    row('no workflow', empty);
    row(`${IDLE_WORKFLOWS.toLocaleString('en-US')} idle workflows each`, idle);
    const cpuRow = (label: string, [platformCpu, bareCpu]: Sampled[]) =>
      console.log(`  ${label.padEnd(34)} platform ${platformCpu!.cpuMsPerS.toFixed(1).padStart(5)} ms/s   bare ${bareCpu!.cpuMsPerS.toFixed(1).padStart(5)} ms/s`);
    console.log('CPU at rest over the same samples (milliseconds of CPU per second, all threads):');
    cpuRow('no workflow', empty);
    cpuRow(`${IDLE_WORKFLOWS.toLocaleString('en-US')} idle workflows each`, idle);
    console.log(`ratio platform / bare worker RSS at rest with ${IDLE_WORKFLOWS.toLocaleString('en-US')} idle workflows: ${(idle[0]!.median / idle[1]!.median).toFixed(2)}`);
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
