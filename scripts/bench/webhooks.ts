import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { insertEndpoint } from '../../services/webhooks/repository';
import { createWebhookReceiver, MemoryEventIdStore } from '../../domain/webhook-receiver';
import { createDatabase } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import { applyPendingMigrations } from '../db/migrations';
import { createAccount, createChannel } from '../operator/accounts';
import { ensureDatabase, startEmbeddedPostgres } from '../postgres/embedded';
import { freePort } from '../net/free-port';
import { startTemporalDevServer } from '../temporal/cli';

/**
 * `npm run bench:webhooks`: EVENTS events committed to the outbox (transactions of BATCH, as
 * fast as one connection commits them) and delivered to one local endpoint by the real path:
 * the worker process's outbox dispatcher, one delivery workflow per event on the Temporal dev
 * server, signed POSTs to a receiver on the receiver kit in this process. Reports deliveries per
 * second (first commit to last receipt) and latency from each event's commit to its receipt.
 * Then BENCH_PACED_EVENTS more, one per transaction, at BENCH_PACED_RATE per second (default: half
 * the burst's delivery rate, so nothing queues), for the latency of a system under its capacity.
 */
const ROOT = resolve(__dirname, '../..');
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 100);
const PACED_EVENTS = Number(process.env.BENCH_PACED_EVENTS ?? 200);

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-webhooks-'));
  process.env.SECRETS_KEY = randomBytes(32).toString('hex');
  // The receiver is on 127.0.0.1.
  process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort(), persistent: false });
  const temporal = await startTemporalDevServer({ dataDir: join(dir, 'temporal'), port: await freePort(), uiPort: await freePort() });
  let worker: ReturnType<typeof spawn> | undefined;
  const receiverServer = createServer();
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

    // The receiver: the kit over node:http, noting when each event_id arrives.
    const receivedAt = new Map<string, number>();
    let requests = 0;
    let rejected = 0;
    let secret = '';
    const kit = createWebhookReceiver({
      secrets: () => [secret],
      store: new MemoryEventIdStore(),
      // A burst of 10,000 queues for longer than the 5-minute replay window on this machine; a
      // compliant receiver would refuse the late ones as STALE and the run would measure retries.
      replayWindowMs: Number.POSITIVE_INFINITY,
      onEvent: (event) => void receivedAt.set(event.event_id, Date.now()),
    });
    receiverServer.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        requests++;
        const result = await kit.handle(Buffer.concat(chunks), req.headers);
        if (result.status !== 200) rejected++;
        res.writeHead(result.status).end();
      });
    });
    await new Promise<void>((done) => receiverServer.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(receiverServer.address() as AddressInfo).port}/hooks`;

    const endpoint = await db.$transaction((tx) =>
      insertEndpoint(tx, { accountId: account.id, channelId: null, url, eventTypes: ['CUSTOMER_CREATED'], now: new Date() }),
    );
    secret = endpoint.secret;
    await db.webhookEndpoint.update({ where: { id: endpoint.row.id }, data: { status: 'ACTIVE' } });

    worker = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'worker/main.ts')], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporal.address },
    });
    // Warm-up: the first delivery pays for the worker's start and the workflow bundle.
    const warm = await commit(db, account.id, channel.id, 1);
    await waitUntil(() => receivedAt.has(warm[0]!.id), 120_000);

    const committedAt = new Map<string, number>();
    const started = Date.now();
    for (let sent = 0; sent < EVENTS; sent += BATCH) {
      for (const event of await commit(db, account.id, channel.id, Math.min(BATCH, EVENTS - sent))) committedAt.set(event.id, event.at);
    }
    const committedIn = Date.now() - started;
    await waitUntil(() => [...committedAt.keys()].every((id) => receivedAt.has(id)), 30 * 60_000);
    const burst = summarise(committedAt, receivedAt);
    const pacedRate = Number(process.env.BENCH_PACED_RATE ?? Math.max(1, Math.floor(burst.perSecond / 2)));

    const pacedAt = new Map<string, number>();
    const pacedStart = Date.now();
    for (let n = 0; n < PACED_EVENTS; n++) {
      const due = pacedStart + (n * 1000) / pacedRate;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      for (const event of await commit(db, account.id, channel.id, 1)) pacedAt.set(event.id, event.at);
    }
    await waitUntil(() => [...pacedAt.keys()].every((id) => receivedAt.has(id)), 10 * 60_000);
    const paced = summarise(pacedAt, receivedAt);
    // Where the time goes: commit → dispatched (the delivery row) → attempt started (workflow and activity scheduling).
    const [stages] = await db.$queryRaw<{ dispatch_p50: number; dispatch_p99: number; start_p50: number; start_p99: number; http_p50: number }[]>`
      SELECT
        percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM d.created_at - e.created_at) * 1000) AS dispatch_p50,
        percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM d.created_at - e.created_at) * 1000) AS dispatch_p99,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM a.requested_at - d.created_at) * 1000) AS start_p50,
        percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM a.requested_at - d.created_at) * 1000) AS start_p99,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY a.duration_ms) AS http_p50
      FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id JOIN webhook_delivery_attempts a ON a.delivery_id = d.id`;
    const attempts = await db.webhookDeliveryAttempt.count();
    const failedAttempts = await db.webhookDeliveryAttempt.count({ where: { OR: [{ responseStatus: null }, { responseStatus: { not: 200 } }] } });
    const deliveries = await db.webhookDelivery.count({ where: { status: 'SUCCEEDED' } });
    await db.$disconnect();

    console.log('');
    console.log(`webhooks: ${EVENTS} events committed in transactions of ${BATCH} (${committedIn} ms), delivered to one local endpoint`);
    console.log(`  deliveries/s  ${burst.perSecond.toFixed(0)}   (first commit → last receipt ${burst.spanMs} ms)`);
    console.log(`  commit → receipt  p50 ${burst.p50} ms   p99 ${burst.p99} ms   max ${burst.max} ms`);
    console.log(`paced: ${PACED_EVENTS} events, one per transaction, ${pacedRate}/s`);
    console.log(`  commit → receipt  p50 ${paced.p50} ms   p99 ${paced.p99} ms   max ${paced.max} ms`);
    const ms = (v: number) => `${Math.round(Number(v))} ms`;
    console.log(`stages (all events): commit → dispatched p50 ${ms(stages!.dispatch_p50)} p99 ${ms(stages!.dispatch_p99)}; dispatched → attempt p50 ${ms(stages!.start_p50)} p99 ${ms(stages!.start_p99)}; POST p50 ${ms(stages!.http_p50)}`);
    console.log(`receiver: ${requests} requests, ${rejected} rejected; ${deliveries} SUCCEEDED deliveries, ${attempts} attempts (${failedAttempts} failed)`);
  } finally {
    await cleanUp();
  }
}

async function commit(db: ReturnType<typeof createDatabase>, accountId: string, channelId: string, count: number) {
  const ids = await db.$transaction(async (tx) => {
    const made: string[] = [];
    for (let i = 0; i < count; i++) {
      const envelope = await recordEvent(tx, {
        accountId,
        channelId,
        name: 'CustomerCreated',
        data: { customer: { id: `cust_bench${i}`, type: 'INDIVIDUAL', email: 'bench@example.com', status: 'ACTIVE' } },
        occurredAt: new Date(),
      });
      made.push(envelope.event_id);
    }
    return made;
  });
  const at = Date.now();
  return ids.map((id) => ({ id, at }));
}

function summarise(committedAt: Map<string, number>, receivedAt: Map<string, number>) {
  const latencies = [...committedAt].map(([id, at]) => receivedAt.get(id)! - at).sort((a, b) => a - b);
  const first = Math.min(...committedAt.values());
  const last = Math.max(...[...committedAt.keys()].map((id) => receivedAt.get(id)!));
  const spanMs = last - first;
  return {
    spanMs,
    perSecond: committedAt.size / (spanMs / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1],
  };
}

async function waitUntil(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for deliveries');
    await new Promise((r) => setTimeout(r, 20));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
