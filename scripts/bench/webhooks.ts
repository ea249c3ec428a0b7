import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { insertEndpoint } from '../../services/webhooks/repository';
import { createWebhookReceiver, MemoryEventIdStore, type WebhookReceiver } from '../../domain/webhook-receiver';
import { computeSignature } from '../../domain/webhook-signature';
import { createDatabase, type Database } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import { DEFAULT_ENDPOINT_CONCURRENCY } from '../../services/webhooks/sender';
import { applyPendingMigrations } from '../db/migrations';
import { createAccount, createChannel } from '../operator/accounts';
import { ensureDatabase, startEmbeddedPostgres } from '../postgres/embedded';
import { freePort } from '../net/free-port';
import { startTemporalDevServer } from '../temporal/cli';
import { ownChild } from './processes';

/**
 * `npm run bench:webhooks` (docs/benchmarks.md): the real path, a `worker/main.ts` process (its
 * outbox dispatcher and webhook sender, retry workflows on the Temporal dev server) delivering
 * events committed to the outbox with `recordEvent` (transactions of BATCH) to receivers on the
 * receiver kit in this process.
 *
 * 1. EVENTS events to one endpoint: deliveries per second (first commit → last receipt), commit →
 *    receipt p50/p99, the split by stage; then BENCH_PACED_EVENTS more, one per transaction, at
 *    half the measured rate (BENCH_PACED_RATE overrides), for the latency below capacity.
 * 2. EVENTS events across BENCH_ENDPOINTS endpoints (one channel each), BENCH_DEAD_ENDPOINTS of
 *    them dead (requests hang until WEBHOOK_DELIVERY_TIMEOUT_MS): the healthy endpoints' latency,
 *    and after BENCH_DEAD_WAIT_S, the dead deliveries' second attempts against the retry schedule.
 * 3. The backlog: the worker stopped, EVENTS events committed to one endpoint, the worker
 *    started again: deliveries per second from the first receipt to the last, the delivery path's
 *    own rate, whatever the committing connection manages on a loaded machine.
 * 4. The ceiling: a bare keep-alive HTTP client signing and POSTing to the same kit receiver with
 *    the sender's per-endpoint concurrency, in the same run; the ratio is printed last.
 */
const ROOT = resolve(__dirname, '../..');
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 100);
const PACED_EVENTS = Number(process.env.BENCH_PACED_EVENTS ?? 1000);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 100);
const DEAD = Number(process.env.BENCH_DEAD_ENDPOINTS ?? 10);
const DEAD_WAIT_S = Number(process.env.BENCH_DEAD_WAIT_S ?? 90);
const CONCURRENCY = Number(process.env.WEBHOOK_ENDPOINT_CONCURRENCY ?? DEFAULT_ENDPOINT_CONCURRENCY);

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-webhooks-'));
  process.env.SECRETS_KEY = randomBytes(32).toString('hex');
  // The receivers are on 127.0.0.1.
  process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort(), persistent: false });
  const temporal = await startTemporalDevServer({ dataDir: join(dir, 'temporal'), port: await freePort(), uiPort: await freePort() });
  let worker: ReturnType<typeof spawn> | undefined;
  const receiverServer = createServer();
  const hanging: ServerResponse[] = [];
  const cleanUp = async () => {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((done) => worker!.once('exit', done));
      worker.kill('SIGTERM');
      await exited;
    }
    receiverServer.closeAllConnections();
    receiverServer.close();
    await temporal.stop();
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  };
  // Ctrl-C stops the worker, Temporal and PostgreSQL too, rather than orphaning them.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
  try {
    await ensureDatabase(postgres.adminUrl, 'bench');
    const databaseUrl = postgres.urlFor('bench');
    await applyPendingMigrations(databaseUrl);
    const db = createDatabase(databaseUrl, 4);
    const account = await createAccount(db, 'bench');
    const channel = await createChannel(db, account.id, 'bench');

    // The receivers: one kit per path (each endpoint its secret), noting when each event_id arrives;
    // a /dead/ path never answers.
    const receivedAt = new Map<string, number>();
    const kits = new Map<string, WebhookReceiver>();
    let requests = 0;
    let rejected = 0;
    let duplicates = 0;
    let deadRequests = 0;
    const kitFor = (secret: string) => receiverKit(secret, receivedAt);
    receiverServer.on('request', (req, res) => {
      if (req.url!.startsWith('/dead/')) {
        deadRequests++;
        hanging.push(res);
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        requests++;
        const result = await kits.get(req.url!)!.handle(Buffer.concat(chunks), req.headers);
        if (result.status !== 200) rejected++;
        if (result.outcome === 'DUPLICATE') duplicates++;
        res.writeHead(result.status).end();
      });
    });
    await new Promise<void>((done) => receiverServer.listen(0, '127.0.0.1', done));
    const base = `http://127.0.0.1:${(receiverServer.address() as AddressInfo).port}`;
    const addEndpoint = async (path: string, channelId: string | null) => {
      const endpoint = await db.$transaction((tx) =>
        insertEndpoint(tx, { accountId: account.id, channelId, url: `${base}${path}`, eventTypes: ['CUSTOMER_CREATED'], now: new Date() }),
      );
      kits.set(path, kitFor(endpoint.secret));
      await db.webhookEndpoint.update({ where: { id: endpoint.row.id }, data: { status: 'ACTIVE' } });
      return { id: endpoint.row.id, secret: endpoint.secret };
    };

    const single = await addEndpoint('/hooks', null);
    const startWorker = () =>
      // BENCH_WORKER_NODE_ARGS: e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the worker.
      ownChild(
        spawn(process.execPath, [...(process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean), '--import', 'tsx', join(ROOT, 'worker/main.ts')], {
          cwd: ROOT,
          stdio: 'inherit',
          env: { ...process.env, DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporal.address },
        }),
      );
    worker = startWorker();
    // Warm-up: the first delivery pays for the worker's start and the workflow bundle.
    const warm = await commit(db, account.id, [channel.id], 1);
    await waitUntil(() => receivedAt.has(warm[0]!.id), 180_000);
    const loadBefore = load();

    // 1. One endpoint: burst, then paced.
    const burstAt = await commitAll(db, account.id, [channel.id], EVENTS);
    await waitUntil(() => [...burstAt.keys()].every((id) => receivedAt.has(id)), 30 * 60_000);
    const burst = summarise(burstAt, receivedAt);
    const burstStages = await stages(db, [single.id]);
    const loadBurst = load();
    const pacedRate = Number(process.env.BENCH_PACED_RATE ?? Math.max(1, Math.floor(burst.perSecond / 2)));
    const pacedAt = new Map<string, number>();
    const pacedStart = Date.now();
    for (let n = 0; n < PACED_EVENTS; n++) {
      const due = pacedStart + (n * 1000) / pacedRate;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      for (const event of await commit(db, account.id, [channel.id], 1)) pacedAt.set(event.id, event.at);
    }
    const pacedActualRate = PACED_EVENTS / ((Date.now() - pacedStart) / 1000);
    await waitUntil(() => [...pacedAt.keys()].every((id) => receivedAt.has(id)), 10 * 60_000);
    const paced = summarise(pacedAt, receivedAt);
    await db.webhookEndpoint.update({ where: { id: single.id }, data: { status: 'INACTIVE' } });

    // 2. Many endpoints, some dead.
    const channels: string[] = [];
    const healthy: string[] = [];
    const dead: string[] = [];
    for (let n = 0; n < ENDPOINTS; n++) {
      const own = await createChannel(db, account.id, `bench ${n}`);
      channels.push(own.id);
      const isDead = n % Math.max(1, Math.floor(ENDPOINTS / Math.max(DEAD, 1))) === 0 && dead.length < DEAD;
      const endpoint = await addEndpoint(isDead ? `/dead/${n}` : `/hooks/${n}`, own.id);
      (isDead ? dead : healthy).push(endpoint.id);
    }
    const deadChannels = new Set(channels.filter((_, n) => dead.length > 0 && n % Math.max(1, Math.floor(ENDPOINTS / Math.max(DEAD, 1))) === 0).slice(0, DEAD));
    const spreadAt = await commitAll(db, account.id, channels, EVENTS, (channelId) => !deadChannels.has(channelId));
    await waitUntil(() => [...spreadAt.keys()].every((id) => receivedAt.has(id)), 30 * 60_000);
    const spread = summarise(spreadAt, receivedAt);
    const spreadStages = await stages(db, healthy);
    const loadSpread = load();
    await new Promise((r) => setTimeout(r, DEAD_WAIT_S * 1000));
    const deadStats = await retryStats(db, dead);

    // 3. The backlog, delivered by a worker started after it was committed.
    const stopping = worker;
    const exited = new Promise((done) => stopping.once('exit', done));
    stopping.kill('SIGTERM');
    await exited;
    await db.webhookEndpoint.update({ where: { id: single.id }, data: { status: 'ACTIVE' } });
    await db.webhookEndpoint.updateMany({ where: { id: { in: [...healthy, ...dead] } }, data: { status: 'INACTIVE' } });
    const backlog = await backlogPhase({ db, accountId: account.id, channelId: channel.id, events: EVENTS, receivedAt, startWorker: () => (worker = startWorker()) });
    const backlogStages = await stagesSince(db, [single.id], backlog.committedFrom);
    const loadBacklog = load();

    // 4. The ceiling: the same receiver, a bare keep-alive client, the same concurrency.
    const ceiling = await bareClient(`${base}/hooks`, single.secret, Math.min(EVENTS, 5000), CONCURRENCY);
    const loadEnd = load();

    const attempts = await db.webhookDeliveryAttempt.count({ where: { delivery: { endpointId: { in: [single.id, ...healthy] } } } });
    const failedAttempts = await db.webhookDeliveryAttempt.count({
      where: { delivery: { endpointId: { in: [single.id, ...healthy] } }, OR: [{ responseStatus: null }, { responseStatus: { not: 200 } }] },
    });
    const succeeded = await db.webhookDelivery.count({ where: { status: 'SUCCEEDED' } });
    await db.$disconnect();

    const ms = (v: number) => `${Math.round(Number(v))} ms`;
    const stageLine = (s: Stages) =>
      `commit → queued p50 ${ms(s.queue_p50)} p99 ${ms(s.queue_p99)}; queued → attempt p50 ${ms(s.start_p50)} p99 ${ms(s.start_p99)}; POST p50 ${ms(s.http_p50)} p99 ${ms(s.http_p99)}`;
    console.log('');
    console.log(`load average before ${loadBefore}; after the burst ${loadBurst}; after the spread ${loadSpread}; after the backlog ${loadBacklog}; at the end ${loadEnd}`);
    console.log(`1. ${EVENTS} events in transactions of ${BATCH} (${burst.committedInMs} ms to commit), one endpoint, ${CONCURRENCY} in flight at most`);
    console.log(`  deliveries/s  ${burst.perSecond.toFixed(0)}   (first commit → last receipt ${burst.spanMs} ms)`);
    console.log(`  commit → receipt  p50 ${burst.p50} ms   p99 ${burst.p99} ms   max ${burst.max} ms`);
    console.log(`  stages: ${stageLine(burstStages)}`);
    console.log(`paced: ${PACED_EVENTS} events, one per transaction, asked ${pacedRate}/s, committed at ${pacedActualRate.toFixed(0)}/s`);
    console.log(`  commit → receipt  p50 ${paced.p50} ms   p99 ${paced.p99} ms   max ${paced.max} ms`);
    console.log(`2. ${EVENTS} events across ${ENDPOINTS} endpoints, ${dead.length} dead (hanging until the timeout); ${spreadAt.size} to healthy ones`);
    console.log(`  healthy deliveries/s  ${spread.perSecond.toFixed(0)}   commit → receipt p50 ${spread.p50} ms   p99 ${spread.p99} ms   max ${spread.max} ms`);
    console.log(`  stages (healthy): ${stageLine(spreadStages)}`);
    console.log(`  healthy p99 / single-endpoint p99: ${(spread.p99 / burst.p99).toFixed(2)}`);
    console.log(
      `  dead: ${deadStats.deliveries} deliveries, ${deadStats.firstAttempts} first attempts, ${deadStats.second} second attempts after ${DEAD_WAIT_S} s; ` +
        `second − first p50 ${ms(deadStats.gapP50)} min ${ms(deadStats.gapMin)} max ${ms(deadStats.gapMax)} (schedule: 60000 ms); ${deadRequests} requests held`,
    );
    console.log(`3. backlog: ${EVENTS} events committed with the worker stopped, then delivered by a worker started after`);
    console.log(`  deliveries/s  ${backlog.perSecond.toFixed(0)}   (first receipt → last receipt ${backlog.spanMs} ms)`);
    console.log(`  stages: ${stageLine(backlogStages)}`);
    console.log(`receiver: ${requests} requests, ${rejected} rejected, ${duplicates} duplicates by event_id; ${succeeded} SUCCEEDED deliveries; ${attempts} attempts to live endpoints (${failedAttempts} failed)`);
    console.log(`ceiling: bare keep-alive client, ${ceiling.count} signed POSTs, ${CONCURRENCY} in flight: ${ceiling.perSecond.toFixed(0)}/s`);
    console.log(`ratios to the ceiling: burst ${(burst.perSecond / ceiling.perSecond).toFixed(2)}; backlog ${(backlog.perSecond / ceiling.perSecond).toFixed(2)}`);
  } finally {
    for (const res of hanging) res.destroy();
    await cleanUp();
  }
}

/** A receiver kit for an endpoint's `secret`, noting in `receivedAt` when each event_id arrives. */
export function receiverKit(secret: string, receivedAt: Map<string, number>): WebhookReceiver {
  return createWebhookReceiver({
    secrets: () => [secret],
    store: new MemoryEventIdStore(),
    // A burst of 10,000 may queue for longer than the 5-minute replay window on a loaded machine.
    replayWindowMs: Number.POSITIVE_INFINITY,
    onEvent: (event) => void receivedAt.set(event.event_id, Date.now()),
  });
}

export interface BacklogRun {
  db: Database;
  accountId: string;
  channelId: string;
  events: number;
  /** Filled by the receivers of the endpoint that takes the channel's events. */
  receivedAt: Map<string, number>;
  /** Called with no worker running, once the backlog is committed. */
  startWorker: () => ChildProcess;
}

/**
 * Phase 3: `events` events committed to the channel while no worker runs, then a worker started;
 * deliveries per second from the first receipt to the last, the worker's start left out. The
 * worker is left running; `startWorker` keeps hold of it.
 */
export async function backlogPhase(run: BacklogRun): Promise<{ perSecond: number; spanMs: number; committedFrom: number }> {
  const committedAt = await commitAll(run.db, run.accountId, [run.channelId], run.events);
  run.startWorker();
  await waitUntil(() => [...committedAt.keys()].every((id) => run.receivedAt.has(id)), 30 * 60_000);
  const receipts = [...committedAt.keys()].map((id) => run.receivedAt.get(id)!);
  const spanMs = Math.max(...receipts) - Math.min(...receipts);
  return { perSecond: run.events / (spanMs / 1000), spanMs, committedFrom: Math.min(...committedAt.values()) };
}

async function commit(db: Database, accountId: string, channelIds: string[], count: number, offset = 0) {
  const ids = await db.$transaction(async (tx) => {
    const made: { id: string; channelId: string }[] = [];
    for (let i = 0; i < count; i++) {
      const channelId = channelIds[(offset + i) % channelIds.length]!;
      const envelope = await recordEvent(tx, {
        accountId,
        channelId,
        name: 'CustomerCreated',
        data: { customer: { id: `cust_bench${i}`, type: 'INDIVIDUAL', email: 'bench@example.com', status: 'ACTIVE' } },
        occurredAt: new Date(),
      });
      made.push({ id: envelope.event_id, channelId });
    }
    return made;
  });
  const at = Date.now();
  return ids.map((e) => ({ ...e, at }));
}

/** `total` events in transactions of BATCH; returns the commit instants of those `watched` says to wait for. */
async function commitAll(db: Database, accountId: string, channelIds: string[], total: number, watched: (channelId: string) => boolean = () => true) {
  const committedAt = new Map<string, number>();
  for (let sent = 0; sent < total; sent += BATCH) {
    for (const event of await commit(db, accountId, channelIds, Math.min(BATCH, total - sent), sent)) {
      if (watched(event.channelId)) committedAt.set(event.id, event.at);
    }
  }
  return committedAt;
}

function summarise(committedAt: Map<string, number>, receivedAt: Map<string, number>) {
  const latencies = [...committedAt].map(([id, at]) => receivedAt.get(id)! - at).sort((a, b) => a - b);
  const first = Math.min(...committedAt.values());
  const last = Math.max(...[...committedAt.keys()].map((id) => receivedAt.get(id)!));
  const spanMs = last - first;
  return {
    spanMs,
    committedInMs: Math.max(...committedAt.values()) - first,
    perSecond: committedAt.size / (spanMs / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1]!,
  };
}

interface Stages {
  queue_p50: number;
  queue_p99: number;
  start_p50: number;
  start_p99: number;
  http_p50: number;
  http_p99: number;
}

/** Where the time goes, from the rows: commit → queued (the delivery row) → first attempt, and the POST itself. */
function stages(db: Database, endpointIds: string[]): Promise<Stages> {
  return stagesSince(db, endpointIds, 0);
}

async function stagesSince(db: Database, endpointIds: string[], committedFrom: number): Promise<Stages> {
  const [row] = await db.$queryRaw<Stages[]>`
    SELECT
      percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM d.created_at - e.created_at) * 1000) AS queue_p50,
      percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM d.created_at - e.created_at) * 1000) AS queue_p99,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM a.requested_at - d.created_at) * 1000) AS start_p50,
      percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM a.requested_at - d.created_at) * 1000) AS start_p99,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY a.duration_ms) AS http_p50,
      percentile_cont(0.99) WITHIN GROUP (ORDER BY a.duration_ms) AS http_p99
    FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
    JOIN webhook_delivery_attempts a ON a.delivery_id = d.id AND a.attempt = 1
    WHERE d.endpoint_id = ANY(${endpointIds}::text[]) AND e.created_at >= ${new Date(committedFrom - 1_000)}`;
  return row!;
}

/** The dead endpoints' deliveries: how many have a first and a second attempt, and the gap between them. */
async function retryStats(db: Database, endpointIds: string[]) {
  const deliveries = await db.webhookDelivery.findMany({
    where: { endpointId: { in: endpointIds } },
    select: { attempts: { select: { attempt: true, requestedAt: true }, orderBy: { attempt: 'asc' } } },
  });
  const gaps = deliveries
    .filter((d) => d.attempts.length >= 2)
    .map((d) => d.attempts[1]!.requestedAt.getTime() - d.attempts[0]!.requestedAt.getTime())
    .sort((a, b) => a - b);
  return {
    deliveries: deliveries.length,
    firstAttempts: deliveries.filter((d) => d.attempts.length >= 1).length,
    second: gaps.length,
    gapP50: percentile(gaps, 50),
    gapMin: gaps[0] ?? NaN,
    gapMax: gaps[gaps.length - 1] ?? NaN,
  };
}

/** Signed POSTs of distinct events over kept-alive connections, `concurrency` at a time: what the receiver takes. */
async function bareClient(url: string, secret: string, count: number, concurrency: number) {
  const agent = new Agent({ keepAlive: true });
  const target = new URL(url);
  let next = 0;
  const post = (body: Buffer) =>
    new Promise<void>((done, fail) => {
      const req = request(
        target,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length, signature: computeSignature(secret, body) } },
        (res) => {
          res.resume();
          res.on('end', () => done());
        },
      );
      req.on('error', fail);
      req.end(body);
    });
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const n = next++;
        const body = Buffer.from(
          JSON.stringify({
            event_id: `evt_ceiling${n}`,
            event_type: 'CUSTOMER_CREATED',
            occurred_at: new Date().toISOString(),
            data: { customer: { id: `cust_bench${n}`, type: 'INDIVIDUAL', email: 'bench@example.com', status: 'ACTIVE' } },
          }),
        );
        await post(body);
      }
    }),
  );
  agent.destroy();
  return { count, perSecond: count / ((Date.now() - started) / 1000) };
}

async function waitUntil(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for deliveries');
    await new Promise((r) => setTimeout(r, 20));
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
