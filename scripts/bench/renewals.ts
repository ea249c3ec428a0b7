import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { formatDateTime } from '../../domain/datetime';
import { EVENT_TYPES } from '../../domain/event-catalogue';
import { createDatabase } from '../../prisma/client';
import { applyPendingMigrations } from '../db/migrations';
import { createAccount, createChannel, createOperatorApiKey } from '../operator/accounts';
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../postgres/embedded';
import { freePort } from '../net/free-port';
import { ownChild, startApiUnderTest, type ApiUnderTest } from './processes';
import { formatPerOperation, perOperation, StatementCounter, STATEMENT_COUNTING_SETTINGS, type PerOperation } from './statement-counts';
import type { CeilingActivities, renewalCeilingWorkflow } from './renewal-ceiling-workflow';
import { apiClient } from './api-client';
import { CORES, sampleMachineCpu, type MachineCpu } from './machine-cpu';
import { seedPayers, type Payer } from './payers';
import { benchTemporalFromEnv, benchTemporalLabel, startBenchTemporal } from './temporal-server';
import { checkUsageLines, createUsagePrices, eventsOf, ingestUsage, USAGE_SETTINGS, type UsageCheck, type UsagePrices } from './renewal-usage';

/**
 * `npm run bench:renewals [N]`: N subscriptions whose billing cycle ends at the same instant on
 * a real Temporal server in real time (the local dev server, or with BENCH_TEMPORAL=postgres the
 * full server on PostgreSQL), and beside them in the same run N bare
 * workflows with one timer and one no-op activity to that instant, as the ceiling, and N more
 * whose no-op activity is local, as the platform's renewal is: the ceiling of its shape. All measure
 * from the instant: renewals completed per second, the slowest end-to-end latency, and the
 * worker's resident memory (a child process of its own, sampled from /proc).
 *
 * With BENCH_USAGE=1 every platform subscription also has a usage line, and its renewal bills
 * the fixed line ahead and the usage ingested for the period that ended (renewal-usage.ts); the
 * ceilings stay the bare workflows.
 */
const ROOT = resolve(__dirname, '../..');
const N = Number(process.argv[2] ?? process.env.BENCH_SUBSCRIPTIONS ?? 10_000);
const CEILING_QUEUE = 'bench-renewal-ceiling';
/** Throwaway starts that measure how fast the N can be created, to place the instant after them. */
const CALIBRATION = 50;
const START_CONCURRENCY = 32;
/**
 * Slack before the instant beyond the calibrated creation time. The platform's (60 s) leaves
 * room for first charges that queue behind the per-process charge limit (docs/benchmarks.md).
 */
const SLACK_MS = Number(process.env.BENCH_SLACK_S ?? 20) * 1000;
const PLATFORM_SLACK_MS = Number(process.env.BENCH_PLATFORM_SLACK_S ?? 60) * 1000;
const USAGE = process.env.BENCH_USAGE === '1';
/** What the instant leaves for ingesting the usage events, per event: 5,000 events/s, a quarter of what ingestion is meant to reach. */
const INGEST_MS_PER_EVENT = 0.2;
interface HalfResult {
  label: string;
  count: number;
  createdPerSecond: number;
  /** The platform: subscriptions/create answered per second, before the workflows made them ACTIVE. */
  apiCreatedPerSecond?: number;
  /** From the first seeded row to the last subscription ACTIVE, before the instant. */
  setupS?: number;
  /** Milliseconds after the instant at which each renewal completed, sorted. */
  latenciesMs: number[];
  idleRssMb: number;
  peakRssMb: number;
  /** CPU from the instant to the slowest renewal, per renewal: the whole machine's and the worker's; and how busy the machine was. */
  machine: { cpuMsPerRenewal: number; workerCpuMsPerRenewal: number; busyShare: number };
  /** The platform: what the billing database did from the instant until every renewal was in, per renewal. */
  perRenewal?: PerOperation;
  /** The platform, with BENCH_STATEMENTS: the most frequent statements of that window. */
  topStatements?: string[];
  /** The platform, with BENCH_USAGE: the events ingested before the instant, and the renewal invoices checked against them. */
  usage?: { events: number; ingestedPerSecond: number; check: UsageCheck };
}

function log(message: string): void {
  process.stderr.write(`[bench:renewals] ${message}\n`);
}

/** Runs `work(i)` for i in [0, count) with at most `concurrency` at once. */
async function pool(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

/** Resident set size of a process, from /proc (Linux). */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb ? Number(kb) / 1024 : NaN;
}

/** The machine's CPU from the instant to the slowest of `latenciesMs`, per renewal. */
function machineCost(cpu: MachineCpu, boundary: number, latenciesMs: number[]): HalfResult['machine'] {
  const slowestMs = latenciesMs[latenciesMs.length - 1]!;
  const { machineS, processS } = cpu.secondsBetween(boundary, boundary + slowestMs);
  return {
    cpuMsPerRenewal: (machineS * 1000) / latenciesMs.length,
    workerCpuMsPerRenewal: (processS * 1000) / latenciesMs.length,
    busyShare: machineS / CORES / (slowestMs / 1000),
  };
}

/** Samples a process's RSS every 200 ms until stopped; returns the largest sample. */
function sampleRss(pid: number): { stop(): number } {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 200);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssMb(pid));
    },
  };
}

/**
 * The instant every renewal falls on: after the calibration batch's rate says all N will have
 * been created, with half that time again and `slackMs` to spare.
 */
function boundaryAfter(calibrationMs: number, calibrationCount: number, count: number, now: number, slackMs: number): number {
  const expectedMs = (calibrationMs / calibrationCount) * count;
  return Math.ceil((now + expectedMs * 1.5 + slackMs) / 1000) * 1000;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  return exited;
}

async function waitFor<T>(what: string, deadline: number, poll: () => Promise<T | undefined>, child: ChildProcess): Promise<T> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the worker exited while waiting for ${what}`);
    const value = await poll();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

// ---------------------------------------------------------------------------------------------
// The ceiling: bare workflows on a bench-only worker.

type CeilingMessage = { type: 'ready' } | { type: 'renewed'; at: number[] };

async function runCeilingWorker(address: string): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const connection = await NativeConnection.connect({ address });
  const renewedAt: number[] = [];
  const activities: CeilingActivities = {
    async renewCeiling() {
      renewedAt.push(Date.now());
    },
  };
  const worker = await Worker.create({
    connection,
    taskQueue: CEILING_QUEUE,
    workflowsPath: require.resolve('./renewal-ceiling-workflow'),
    activities,
  });
  // The parent asks for the completion times when it has seen enough of them.
  process.on('message', (message: string) => {
    if (message === 'report') process.send!({ type: 'renewed', at: renewedAt } satisfies CeilingMessage);
  });
  const running = worker.run();
  process.send!({ type: 'ready' } satisfies CeilingMessage);
  await running;
  await connection.close();
  process.disconnect?.();
}

/** `local`: the ceiling of the platform's own shape, its activity run locally (docs/subscriptions.md, "Design"). */
async function ceiling(address: string, count: number, local = false): Promise<HalfResult> {
  const name = local ? 'local ceiling' : 'ceiling';
  const child = ownChild(
    spawn(process.execPath, ['--import', 'tsx', __filename, '--ceiling-worker', address], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  let latest: number[] = [];
  let ready = false;
  child.on('message', (message: CeilingMessage) => {
    if (message.type === 'ready') ready = true;
    else latest = message.at;
  });
  const connection = await Connection.connect({ address });
  try {
    await waitFor(`the ${name} worker`, Date.now() + 120_000, async () => (ready ? true : undefined), child);
    const client = new Client({ connection });
    const start = (id: string, boundary: number) =>
      client.workflow.start<typeof renewalCeilingWorkflow>('renewalCeilingWorkflow', {
        taskQueue: CEILING_QUEUE,
        workflowId: id,
        args: [boundary, local],
      });

    const calibrationStarted = Date.now();
    // Far in the future: these only time the starts and never renew within the run.
    await pool(CALIBRATION, START_CONCURRENCY, (i) => start(`${local ? 'local-' : ''}calibration-${i}`, Date.now() + 86_400_000).then(() => undefined));
    const boundary = boundaryAfter(Date.now() - calibrationStarted, CALIBRATION, count, Date.now(), SLACK_MS);
    log(`${name}: starting ${count} workflows, all renewing at ${new Date(boundary).toISOString()}`);
    const createStarted = Date.now();
    await pool(count, START_CONCURRENCY, (i) => start(`${local ? 'local-ceiling' : 'ceiling'}-${i}`, boundary).then(() => undefined));
    const createdPerSecond = count / ((Date.now() - createStarted) / 1000);
    if (Date.now() >= boundary) throw new Error('creating the workflows took past the boundary; the calibration was off');

    const idleRssMb = rssMb(child.pid!);
    await new Promise((r) => setTimeout(r, Math.max(0, boundary - 1000 - Date.now())));
    const sampler = sampleRss(child.pid!);
    const cpu = sampleMachineCpu(child.pid!);
    const renewed = await waitFor(
      `the ${name} renewals`,
      boundary + 30 * 60_000,
      async () => {
        child.send('report');
        await new Promise((r) => setTimeout(r, 50));
        return latest.length >= count ? latest : undefined;
      },
      child,
    );
    const peakRssMb = sampler.stop();
    cpu.stop();
    const latenciesMs = renewed.map((at) => at - boundary).sort((a, b) => a - b);
    return {
      label: local ? 'ceiling: timer + no-op local activity' : 'ceiling: timer + no-op activity',
      count,
      createdPerSecond,
      latenciesMs,
      idleRssMb,
      peakRssMb,
      machine: machineCost(cpu, boundary, latenciesMs),
    };
  } finally {
    await connection.close();
    await stopChild(child);
  }
}

// ---------------------------------------------------------------------------------------------
// The platform: subscriptions created through the API, renewed by the platform's own worker.

async function subscriptions(address: string, postgres: EmbeddedPostgresHandle, dir: string, count: number): Promise<HalfResult> {
  const databaseUrl = postgres.urlFor('bench');
  await applyPendingMigrations(databaseUrl);
  const db = createDatabase(databaseUrl, 4);
  const platformEnv = {
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: address,
    SECRETS_KEY: randomBytes(32).toString('hex'),
    URL_SIGNING_KEY: randomBytes(32).toString('hex'),
    STORAGE_DIR: join(dir, 'files'),
  };
  // BENCH_WORKER_NODE_ARGS: e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the worker.
  const worker = ownChild(
    spawn(process.execPath, [...(process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean), '--import', 'tsx', join(ROOT, 'worker/main.ts')], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...platformEnv },
    }),
  );
  let api: ApiUnderTest | undefined;
  const setupStarted = Date.now();
  try {
    const account = await createAccount(db, 'bench');
    const channel = await createChannel(db, account.id, 'bench');
    const { secret } = await createOperatorApiKey(db, { accountId: account.id, name: 'bench' });
    const payers = await seedPayers(db, account.id, channel.id, count + CALIBRATION + 1);
    api = await startApiUnderTest(ROOT, databaseUrl, platformEnv);
    const call = apiClient(`http://127.0.0.1:${api.port}`, secret);
    const product = await call('products/create', { name: 'Bench plan' });
    const price = (period: { value: number; unit: string }) =>
      call('product-prices/create', { product_id: product.id, currency: 'EUR', amount: 990, billing_type: 'RECURRING', billing_period_config: period });
    const hourly = await price({ value: 1, unit: 'HOUR' });
    const monthly = await price({ value: 1, unit: 'MONTH' });
    const usagePrices: UsagePrices | undefined = USAGE ? await createUsagePrices(call) : undefined;

    const fixed = { HOUR: hourly.id as string, MONTH: monthly.id as string };
    const create = (payer: Payer, period: 'HOUR' | 'MONTH', anchor: number, reference: string) =>
      call('subscriptions/create', {
        customer_id: payer.customerId,
        payment_instrument_id: payer.instrumentId,
        line_items: [
          { product_price_id: fixed[period], quantity: 1 },
          ...(usagePrices ? [{ product_price_id: usagePrices.priceIds[period], quantity: 1 }] : []),
        ],
        anchor_at: formatDateTime(new Date(anchor)),
        merchant_reference: reference,
        ...(usagePrices ? { settings: USAGE_SETTINGS } : {}),
      });
    const activeCount = (reference: string) => db.subscription.count({ where: { merchantReference: reference, status: 'ACTIVE' } });
    const allActive = (reference: string, n: number, deadline: number) =>
      waitFor(`${n} ${reference} subscriptions to be ACTIVE`, deadline, async () => ((await activeCount(reference)) >= n ? true : undefined), worker);

    // Monthly, anchored two weeks out: these never renew within the run. The first one waits
    // for the worker to bundle its workflows, so it is not part of the calibration.
    const farAnchor = Date.now() + 15 * 86_400_000;
    await create(payers[count + CALIBRATION]!, 'MONTH', farAnchor, 'warm-up');
    await allActive('warm-up', 1, Date.now() + 900_000);
    const calibrationStarted = Date.now();
    await pool(CALIBRATION, 16, (i) => create(payers[count + i]!, 'MONTH', farAnchor, 'calibration').then(() => undefined));
    // The rate from the first 90 %: a straggler stuck in an activity timeout must not stretch it.
    const mostActive = Math.ceil(CALIBRATION * 0.9);
    await allActive('calibration', mostActive, Date.now() + 900_000);
    const calibrationMs = Date.now() - calibrationStarted;
    await allActive('calibration', CALIBRATION, Date.now() + 900_000);
    const usageEvents = USAGE ? Array.from({ length: count }, (_, i) => eventsOf(i)).reduce((a, b) => a + b, 0) : 0;
    const boundary = boundaryAfter(calibrationMs, mostActive, count, Date.now(), PLATFORM_SLACK_MS + usageEvents * INGEST_MS_PER_EVENT);

    // Hourly, anchored at the boundary: the first invoice covers now → boundary, the renewal is at it.
    log(`subscriptions: creating ${count}, all renewing at ${new Date(boundary).toISOString()}`);
    const createStarted = Date.now();
    await pool(count, 16, (i) => create(payers[i]!, 'HOUR', boundary, 'measured').then(() => undefined));
    const apiCreatedPerSecond = count / ((Date.now() - createStarted) / 1000);
    log(`subscriptions: ${count} created through the API at ${apiCreatedPerSecond.toFixed(1)}/s`);
    await allActive('measured', count, boundary - 1000);
    const createdPerSecond = count / ((Date.now() - createStarted) / 1000);
    const setupS = (Date.now() - setupStarted) / 1000;
    log(`subscriptions: all ${count} ACTIVE at ${createdPerSecond.toFixed(1)}/s; setup took ${setupS.toFixed(0)} s`);
    const customerIds = payers.slice(0, count).map((payer) => payer.customerId);
    let ingested: { events: number; perSecond: number } | undefined;
    if (USAGE) {
      ingested = await ingestUsage(call, db, 'measured', customerIds, Math.min(Date.now(), boundary - 1000));
      log(`subscriptions: ${ingested.events} usage events ingested at ${ingested.perSecond.toFixed(0)}/s`);
      // The statement counts start 2 s before the instant: ingestion must be over by then.
      if (Date.now() >= boundary - 2500) throw new Error('ingesting the usage events took up to the instant; raise BENCH_PLATFORM_SLACK_S');
    }

    const idleRssMb = rssMb(worker.pid!);
    await new Promise((r) => setTimeout(r, Math.max(0, boundary - 2000 - Date.now())));
    // Reset here, so the counts (and BENCH_STATEMENTS' list) are the renewals' and not the setup's.
    const counter = await StatementCounter.create(databaseUrl);
    const before = await counter.snapshot();
    await new Promise((r) => setTimeout(r, Math.max(0, boundary - 1000 - Date.now())));
    const sampler = sampleRss(worker.pid!);
    const cpu = sampleMachineCpu(worker.pid!);
    // created_at is when the renewal's transaction began: within milliseconds of its commit.
    const renewedSince = { eventType: EVENT_TYPES.SubscriptionRenewed, occurredAt: { gte: new Date(boundary) } };
    await waitFor('the renewals', boundary + 3 * 3_600_000, async () => ((await db.outboxEvent.count({ where: renewedSince })) >= count ? true : undefined), worker);
    const peakRssMb = sampler.stop();
    cpu.stop();
    const renewed = await db.outboxEvent.findMany({ where: renewedSince, select: { createdAt: true } });
    const latenciesMs = renewed.map((e) => e.createdAt.getTime() - boundary).sort((a, b) => a - b);
    const machine = machineCost(cpu, boundary, latenciesMs);
    // The worker and API stay connected: their sessions flush their counters once idle a while.
    await counter.settle();
    const perRenewal = perOperation(before, await counter.snapshot(), count);
    const topStatements = process.env.BENCH_STATEMENTS ? await counter.topStatements() : undefined;
    const usage = ingested && { events: ingested.events, ingestedPerSecond: ingested.perSecond, check: await checkUsageLines(db, 'measured', customerIds, boundary) };
    const label = USAGE ? 'subscriptions: platform, fixed + usage' : 'subscriptions: the platform renewing';
    return { label, count, createdPerSecond, apiCreatedPerSecond, setupS, latenciesMs, idleRssMb, peakRssMb, machine, perRenewal, topStatements, usage };
  } finally {
    await api?.stop();
    await stopChild(worker);
    await db.$disconnect();
  }
}

// ---------------------------------------------------------------------------------------------
// Report.

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summarise(result: HalfResult): { perSecond: number; slowestMs: number; p50Ms: number } {
  const slowestMs = result.latenciesMs[result.latenciesMs.length - 1] ?? NaN;
  return { perSecond: result.count / (slowestMs / 1000), slowestMs, p50Ms: percentile(result.latenciesMs, 50) };
}

function row(result: HalfResult): string {
  const { perSecond, slowestMs, p50Ms } = summarise(result);
  return [
    result.label.padEnd(40),
    `${perSecond.toFixed(1).padStart(8)} renewals/s`,
    `slowest ${(slowestMs / 1000).toFixed(1).padStart(6)} s`,
    `p50 ${(p50Ms / 1000).toFixed(1).padStart(6)} s`,
    `CPU per renewal: machine ${result.machine.cpuMsPerRenewal.toFixed(0)} ms, worker ${result.machine.workerCpuMsPerRenewal.toFixed(0)} ms (machine ${(result.machine.busyShare * 100).toFixed(0)} % busy)`,
    `worker RSS ${result.idleRssMb.toFixed(0)} → peak ${result.peakRssMb.toFixed(0)} MB`,
    result.apiCreatedPerSecond === undefined
      ? `(created ${result.createdPerSecond.toFixed(0)}/s)`
      : `(subscriptions/create ${result.apiCreatedPerSecond.toFixed(1)}/s, ACTIVE ${result.createdPerSecond.toFixed(1)}/s, setup ${result.setupS!.toFixed(0)} s)`,
  ].join('   ');
}

async function main(): Promise<void> {
  if (!Number.isInteger(N) || N < 1) throw new Error(`N must be a positive integer, got ${process.argv[2]}`);
  const dir = await mkdtemp(join(tmpdir(), 'bench-renewals-'));
  let postgres: EmbeddedPostgresHandle | undefined;
  let temporal: { address: string; stop(): Promise<void> } | undefined;
  const kind = benchTemporalFromEnv();
  const server = benchTemporalLabel(kind);
  try {
    const pgPort = await freePort();
    postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: pgPort, persistent: false, settings: STATEMENT_COUNTING_SETTINGS });
    await ensureDatabase(postgres.adminUrl, 'bench');
    temporal = await startBenchTemporal(kind, postgres, pgPort, dir);
    log(`${server} on ${temporal.address}, PostgreSQL ready; N = ${N}${USAGE ? ', every subscription with a usage line' : ''}`);

    const bare = await ceiling(temporal.address, N);
    // Printed now too: the platform half can run for an hour, and a run stopped in it keeps this.
    log(row(bare));
    const bareLocal = await ceiling(temporal.address, N, true);
    log(row(bareLocal));
    const platform = await subscriptions(temporal.address, postgres, dir, N);
    console.log('');
    console.log(`${N} renewals due at the same instant${USAGE ? ', each with a usage line' : ''}, ${server}, worker in its own process:`);
    console.log(`  ${row(bare)}`);
    console.log(`  ${row(bareLocal)}`);
    console.log(`  ${row(platform)}`);
    console.log(`  platform ${formatPerOperation(platform.perRenewal!, 'renewal')}`);
    if (platform.usage) {
      const { events, ingestedPerSecond, check } = platform.usage;
      console.log(`  usage: ${events} events ingested before the instant at ${ingestedPerSecond.toFixed(0)}/s; ${check.invoices} renewal invoices, usage quantity ${check.quantity} billed of ${events} sent`);
      console.log(`  renewal invoices whose usage line is missing or wrong: ${check.mismatches}`);
    }
    if (platform.topStatements) console.log(platform.topStatements.join('\n'));
    const cpuRatio = bare.machine.cpuMsPerRenewal / platform.machine.cpuMsPerRenewal;
    console.log(`  machine CPU per renewal, ceiling / platform: ${cpuRatio.toFixed(3)} (the ratio the machine allows while its CPU is the limit)`);
    // The platform renews in a local activity, so this is its own shape's ceiling; the line after
    // keeps the ceiling (a scheduled activity), whose ratio every earlier run printed.
    console.log(`ratio platform / local ceiling renewals per second: ${(summarise(platform).perSecond / summarise(bareLocal).perSecond).toFixed(3)}`);
    console.log(`ratio platform / ceiling renewals per second: ${(summarise(platform).perSecond / summarise(bare).perSecond).toFixed(3)}`);
  } finally {
    await temporal?.stop();
    await postgres?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--ceiling-worker') {
  runCeilingWorker(process.argv[3]!).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
