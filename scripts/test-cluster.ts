import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { EVENT_NAMES, EVENT_TYPES } from '../domain/event-catalogue';
import { createDatabase } from '../prisma/client';
import { secretsKey } from '../services/secrets/secrets-key';
import { startReceiver, type TestReceiver } from '../test/webhooks/receiver';
import { startApiUnderTest, type ApiUnderTest } from './bench/processes';
import { startS3Server, type S3Server } from './s3/versitygw';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { ApiClient } from './cluster/api-client';
import { entryArgs } from './entry-points';
import { StripeRoute, type StripeCounts } from './cluster/stripe-route';
import { UsageRoute, type UsageCounts } from './cluster/usage-route';
import { applyPendingMigrations } from './db/migrations';
import { freePort } from './net/free-port';
import { createAccount, createChannel, createOperatorApiKey } from './operator/accounts';
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedPostgresHandle } from './postgres/embedded';
import { startClusterServer, type ClusterServer } from './temporal/cluster-server';
import type { ClusterSummary } from './ci/cluster-summary';

/**
 * `npm run test:cluster`: the production topology on one machine — PostgreSQL, the Temporal
 * server on PostgreSQL, two API and two worker processes run from the build (`npm run build`,
 * which the npm script runs first) — under real traffic through both APIs
 * while it is hurt: a worker killed with SIGKILL while subscriptions renew and webhooks go out
 * (a replacement started), an API process killed with SIGKILL while a payment is in flight (a
 * replacement started, the client retrying on the other with the same Idempotency-Key), and
 * PostgreSQL restarted. A second account charges through Stripe (localstripe) at the same time,
 * and both kills land while Stripe has charged for the killed process and it has not yet heard
 * (scripts/cluster/stripe-route.ts). Afterwards it counts, from the database, Temporal, the
 * receiver and localstripe's own records, what must be zero. Then the usage phase: clients
 * ingesting usage events through the APIs, each batch sent again until answered, while APIs and
 * PostgreSQL are killed with SIGKILL at random moments (scripts/cluster/usage-route.ts), and its
 * counts from the database. It prints the counts last and exits 1 on any violation.
 */
const ROOT = resolve(__dirname, '..');
const NAMESPACE = 'billing-cluster';
const LOOPS = Number(process.env.CLUSTER_LOOPS ?? 3);
/** Subscriptions renew every minute, so the run sees each renew once or twice. */
const SUBSCRIPTIONS = Number(process.env.CLUSTER_SUBSCRIPTIONS ?? 4);
const TRAFFIC_MS = Number(process.env.CLUSTER_TRAFFIC_MS ?? 100_000);
const STRIPE_LOOPS = Number(process.env.CLUSTER_STRIPE_LOOPS ?? 2);
const STRIPE_SUBSCRIPTIONS = Number(process.env.CLUSTER_STRIPE_SUBSCRIPTIONS ?? 3);
/**
 * The sweep finishes refunds abandoned for a minute; every minute instead of every 5, so the one
 * the run abandons is finished within it.
 */
const PAYMENT_SWEEP_INTERVAL_MINUTES = '1';
const SETTLE_TIMEOUT_MS = 180_000;
const USAGE_LOOPS = Number(process.env.CLUSTER_USAGE_LOOPS ?? 4);
/** The usage phase's kills, in a random order, each after a random pause of ingestion. */
const USAGE_FAULTS = ['api', 'api', 'postgres', 'postgres'] as const;
const USAGE_PAUSE_MS = { min: 2_000, max: 8_000 };

const log = (message: string) => console.log(`[cluster ${new Date().toISOString().slice(11, 19)}] ${message}`);

interface WorkerProcess {
  name: string;
  child: ChildProcess;
  healthPort: number;
}

async function main(): Promise<void> {
  const started = Date.now();
  // A run that dies before its counts must not leave the recap an earlier run's.
  await rm(join(ROOT, 'test-artifacts', 'cluster'), { recursive: true, force: true });
  const dir = await mkdtemp(join(tmpdir(), 'test-cluster-'));
  const pgPort = await freePort();
  const pgOptions = { dataDir: join(dir, 'pg'), port: pgPort, persistent: true };
  let postgres: EmbeddedPostgresHandle | undefined;
  let temporal: ClusterServer | undefined;
  let receiver: TestReceiver | undefined;
  let s3: S3Server | undefined;
  let stripe: StripeRoute | undefined;
  const apis: ApiUnderTest[] = [];
  const workers: WorkerProcess[] = [];
  const cleanUp = async () => {
    await Promise.all(apis.map((api) => stopProcess(api.child)));
    await Promise.all(workers.map((worker) => stopProcess(worker.child)));
    await receiver?.close();
    await stripe?.stop();
    await temporal?.stop();
    await s3?.stop();
    await postgres?.stop();
    await rm(dir, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
  const stats = { cycles: 0, refunds: 0, retried: 0 };
  let counts: Counts;
  let stripeCounts: StripeCounts;
  let usageCounts: UsageCounts;

  try {
    postgres = await startEmbeddedPostgres(pgOptions);
    await ensureDatabase(postgres.adminUrl, 'billing');
    const databaseUrl = postgres.urlFor('billing');
    await applyPendingMigrations(databaseUrl);
    temporal = await startClusterServer({
      postgres: { host: '127.0.0.1', port: pgPort, user: 'postgres', password: 'postgres', adminUrl: postgres.adminUrl },
      dataDir: join(dir, 'temporal'),
      namespace: NAMESPACE,
    });
    log(`PostgreSQL on ${pgPort}; Temporal server on PostgreSQL at ${temporal.address}, Web UI ${temporal.uiUrl}`);

    // Reports are written by one worker and served by either API: shared S3 storage, not a directory.
    s3 = await startS3Server(join(dir, 's3'));
    // The AWS SDK's notice about its 2027 releases, once in this process and once in each child
    // (they inherit the environment): docs/deployment.md, "Files".
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    const files = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
    await files.send(new CreateBucketCommand({ Bucket: 'cluster-files' }));
    files.destroy();
    log(`S3 (versitygw) at ${s3.endpoint}`);

    const db = createDatabase(databaseUrl, 4);
    const account = await createAccount(db, 'cluster');
    await createChannel(db, account.id, 'cluster');
    const { secret } = await createOperatorApiKey(db, { accountId: account.id, name: 'cluster' });

    const shared = {
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '10',
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: NAMESPACE,
      SECRETS_KEY: randomBytes(32).toString('hex'),
      URL_SIGNING_KEY: randomBytes(32).toString('hex'),
      FILE_STORAGE: 's3',
      S3_BUCKET: 'cluster-files',
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      // The receiver is on 127.0.0.1.
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      PAYMENT_SWEEP_INTERVAL_MINUTES,
    };
    // The build production runs (`npm run build`, which `npm run test:cluster` runs first): dist/ and its prebuilt workflow bundle.
    const startApi = () =>
      startApiUnderTest(ROOT, databaseUrl, { ...shared, RATE_LIMIT_STORE: 'postgres', RATE_LIMITS: JSON.stringify({ '*': { ratePerSecond: 10_000, burst: 10_000 } }) }, 'build');
    let workerCount = 0;
    const startWorker = async (): Promise<WorkerProcess> => {
      const healthPort = await freePort();
      const name = `worker-${++workerCount}`;
      const child = spawn(process.execPath, entryArgs(ROOT, 'worker', 'build'), {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, ...shared, WORKER_HEALTH_PORT: String(healthPort), WORKER_SHUTDOWN_GRACE_MS: '2000' },
      });
      return { name, child, healthPort };
    };
    const [apiA, apiB, workerA, workerB] = await Promise.all([startApi(), startApi(), startWorker(), startWorker()]);
    apis.push(apiA!, apiB!);
    workers.push(workerA!, workerB!);
    await Promise.all([...apis.map((api) => waitReady(`http://127.0.0.1:${api.port}/health/ready`, api.child)), ...workers.map((w) => waitReady(`http://127.0.0.1:${w.healthPort}/health/ready`, w.child))]);
    log(`ready: APIs on ${apis.map((a) => a.port).join(', ')}, workers ${workers.map((w) => w.name).join(', ')} (${Math.round((Date.now() - started) / 1000)} s)`);

    const livePorts = () => apis.filter((api) => api.child.exitCode === null && api.child.signalCode === null).map((api) => api.port);
    const http = new ApiClient(secret, livePorts);
    stripe = await StripeRoute.start({
      db,
      sealingKey: secretsKey({ SECRETS_KEY: shared.SECRETS_KEY }),
      ports: livePorts,
      loops: STRIPE_LOOPS,
      subscriptions: STRIPE_SUBSCRIPTIONS,
      log,
    });
    receiver = await startReceiver();
    const endpoint = await http.ok('webhooks/create', { url: receiver.url, event_types: EVENT_NAMES.map((name) => EVENT_TYPES[name]) });
    receiver.setSecrets([endpoint.secret]);
    await http.ok('webhooks/patch', { id: endpoint.id, status: 'ACTIVE' });

    // Subscriptions first, so that their renewals fall inside the run, and the worker kill on them.
    const product = await http.ok('products/create', { name: 'Minutely plan' });
    const price = await http.ok('product-prices/create', { product_id: product.id, currency: 'EUR', amount: 990, billing_type: 'RECURRING', billing_period_config: { value: 1, unit: 'MINUTE' } });
    const subscriptionsAt = Date.now();
    for (let n = 0; n < SUBSCRIPTIONS; n++) {
      const payer = await http.payer(`sub${n}`);
      await http.ok('subscriptions/create', { customer_id: payer.customerId, line_items: [{ product_price_id: price.id, quantity: 1 }] });
    }
    await stripe.subscribe();
    log(`${SUBSCRIPTIONS} subscriptions renewing every minute, ${STRIPE_SUBSCRIPTIONS} more on Stripe`);

    let stop = false;
    http.onRetry = () => stats.retried++;
    stripe.http.onRetry = () => stats.retried++;
    const stripeTraffic = stripe.traffic(() => stop);
    const loops = Array.from({ length: LOOPS }, (_, n) =>
      (async () => {
        const payer = await http.payer(`loop${n}`);
        for (let cycle = 0; !stop; cycle++) {
          const invoice = await http.ok('invoices/create', { customer_id: payer.customerId, currency: 'EUR', line_items: [{ amount: 1_500 + n, description: 'Cluster', quantity: 2 }] });
          await http.ok('invoices/finalize', { id: invoice.id });
          await http.ok('invoices/pay', { id: invoice.id, payment_instrument_id: payer.instrumentId });
          if (cycle % 3 === 0) {
            await http.ok('invoices/refund', { id: invoice.id, amount: 500 });
            stats.refunds++;
          }
          stats.cycles++;
        }
      })(),
    );

    const faults = (async () => {
      await delay(15_000);
      const victimApi = apis[0]!;
      // Killed while Stripe has charged for it (and made a refund nobody will ask for again) and
      // it has not heard, and while a pay it received is in flight: the clients see the
      // connection drop and retry on the other API with the same Idempotency-Key.
      await stripe!.catchMidCharge([victimApi.child.pid!], { timeoutMs: 30_000, abandonRefundVia: victimApi.port });
      await http.inFlightOn(victimApi.port, 'invoices/pay');
      stripe!.kill(victimApi.child, `API on ${victimApi.port} mid-pay`);
      const replacementApi = await startApi();
      apis.push(replacementApi);
      await waitReady(`http://127.0.0.1:${replacementApi.port}/health/ready`, replacementApi.child);
      log(`replacement API on ${replacementApi.port} ready`);

      await delay(5_000);
      log('restarting PostgreSQL');
      await postgres!.stop();
      postgres = await startEmbeddedPostgres(pgOptions);
      log('PostgreSQL back');

      // Renewals fall due a minute after creation; kill the worker charging one through Stripe.
      await delay(Math.max(0, subscriptionsAt + 55_000 - Date.now()));
      const charging = await stripe!.catchMidCharge(workers.map((worker) => worker.child.pid!), { timeoutMs: 60_000 });
      const victimWorker = workers.find((worker) => worker.child.pid === charging) ?? workers[0]!;
      stripe!.kill(victimWorker.child, `${victimWorker.name} mid-renewal and mid-delivery`);
      const replacementWorker = await startWorker();
      workers.push(replacementWorker);
      await waitReady(`http://127.0.0.1:${replacementWorker.healthPort}/health/ready`, replacementWorker.child);
      log(`replacement ${replacementWorker.name} ready`);
    })();

    await delay(TRAFFIC_MS);
    await faults;
    // Traffic goes on until every subscription has renewed at least once (the count says if one
    // never did); the renewal cut off mid-charge waits out the dead worker's 2-minute claim first.
    const renewalDeadline = Date.now() + 150_000;
    const notRenewed = async () => (await subscriptionsNotRenewed(db, account.id)) + (await subscriptionsNotRenewed(db, stripe!.accountId));
    while ((await notRenewed()) > 0 && Date.now() < renewalDeadline) await delay(1_000);
    stop = true;
    await Promise.all([...loops, stripeTraffic]);
    log(`traffic done: ${stats.cycles} invoices paid, ${stats.refunds} refunds, ${stats.retried} requests retried`);

    const report = await http.ok('reports/create', { report_type: 'INVOICES', date_from: new Date(started - 3_600_000).toISOString(), date_to: new Date(Date.now() + 3_600_000).toISOString() });
    const reportRows = await http.download(report.id, db);
    log(`report downloaded: ${reportRows} lines`);

    // Settle: cancel the subscriptions so nothing new is committed, then wait for the outbox to drain.
    for (const [client, accountId] of [[http, account.id], [stripe.http, stripe.accountId]] as const) {
      for (const subscription of await db.subscription.findMany({ where: { accountId } })) {
        await client.ok('subscriptions/cancel', { id: subscription.id }).catch((error: unknown) => log(`cancel ${subscription.id}: ${String(error)}`));
      }
    }
    counts = await settleAndCount({ db, receiver, temporal, accountId: account.id, stripeAccountId: stripe.accountId, endpointCreatedAt: new Date(endpoint.created_at) });
    stripeCounts = await stripe.settleAndCount();

    // The usage phase, after the counts above: its kill -9 of PostgreSQL takes the Temporal
    // server's and the workers' connections too.
    const usage = await UsageRoute.start({ db, ports: livePorts, loops: USAGE_LOOPS, log });
    let usageDone = false;
    const usageTraffic = usage.traffic(() => usageDone);
    for (const fault of [...USAGE_FAULTS].sort(() => Math.random() - 0.5)) {
      await delay(USAGE_PAUSE_MS.min + Math.random() * (USAGE_PAUSE_MS.max - USAGE_PAUSE_MS.min));
      if (fault === 'api') {
        const live = apis.filter((api) => livePorts().includes(api.port));
        const victim = live[Math.floor(Math.random() * live.length)]!;
        await usage.ingesting(victim.port);
        victim.child.kill('SIGKILL');
        log(`usage phase: kill -9 API on ${victim.port} mid-batch`);
        const replacement = await startApi();
        apis.push(replacement);
        await waitReady(`http://127.0.0.1:${replacement.port}/health/ready`, replacement.child);
        log(`usage phase: replacement API on ${replacement.port} ready`);
      } else {
        await usage.ingesting();
        await postgres!.crash();
        log('usage phase: kill -9 PostgreSQL (the server and its backends) mid-batch');
        postgres = await startEmbeddedPostgres(pgOptions);
        log('usage phase: PostgreSQL back after crash recovery');
      }
    }
    await delay(USAGE_PAUSE_MS.max);
    usageDone = true;
    await usageTraffic;
    usageCounts = await usage.count();
    log(`usage phase done: ${usageCounts.traffic}`);
    await db.$disconnect();
  } finally {
    await cleanUp();
  }

  // Last, after the processes' own shutdown output.
  const seconds = Math.round((Date.now() - started) / 1000);
  const mustBeZero = { ...counts.mustBeZero, ...stripeCounts.mustBeZero, ...usageCounts.mustBeZero };
  const violations = Object.entries(mustBeZero).filter(([, value]) => value !== 0);
  console.log('');
  console.log(`test:cluster — 2 APIs (+3 replacements), 2 workers (+1 replacement), Temporal server on PostgreSQL, ${seconds} s`);
  console.log(`  traffic: ${stats.cycles} invoices paid, ${stats.refunds} refunds, ${counts.renewals} subscription renewals, ${counts.events} events committed, ${counts.received} received, ${stats.retried} requests retried`);
  console.log(`  Stripe route: ${stripeCounts.traffic}`);
  console.log(`  usage ingestion (2 APIs and PostgreSQL killed with -9): ${usageCounts.traffic}`);
  for (const [name, value] of Object.entries(mustBeZero)) console.log(`  ${name}: ${value}`);
  console.log(violations.length === 0 ? 'test:cluster PASSED' : `test:cluster FAILED: ${violations.map(([name]) => name).join(', ')}`);
  process.exitCode = violations.length === 0 ? 0 : 1;
  // For the recap at the very end of CI (scripts/ci/recap.ts).
  const summary: ClusterSummary = { passed: violations.length === 0, seconds, stripeTraffic: stripeCounts.traffic, usageTraffic: usageCounts.traffic, mustBeZero };
  await mkdir(join(ROOT, 'test-artifacts', 'cluster'), { recursive: true });
  await writeFile(join(ROOT, 'test-artifacts', 'cluster', 'summary.json'), JSON.stringify(summary, null, 2));
}

interface Counts {
  events: number;
  received: number;
  renewals: number;
  mustBeZero: Record<string, number>;
}

async function settleAndCount(args: {
  db: ReturnType<typeof createDatabase>;
  receiver: TestReceiver;
  temporal: ClusterServer;
  accountId: string;
  /** Its money is checked as the sandbox account's; its events go to no endpoint. */
  stripeAccountId: string;
  endpointCreatedAt: Date;
}): Promise<Counts> {
  const { db, receiver, temporal, accountId, stripeAccountId, endpointCreatedAt } = args;
  const received = () => new Set(receiver.processed.map((event) => event.event_id));
  const committed = async () => (await db.outboxEvent.findMany({ where: { accountId, createdAt: { gte: endpointCreatedAt } }, select: { id: true } })).map((e) => e.id);
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  let reported = 0;
  for (;;) {
    const seen = received();
    const missing = (await committed()).filter((id) => !seen.has(id));
    if (missing.length === 0 || Date.now() > deadline) break;
    if (Date.now() - reported > 15_000) {
      log(`settling: ${missing.length} committed events not yet received`);
      reported = Date.now();
    }
    await delay(1_000);
  }
  // Whatever was still running (a collection's last activity, a delivery's retry) finishes.
  await delay(10_000);

  const events = await committed();
  const seen = received();
  await explainUndelivered(db, receiver, events.filter((id) => !seen.has(id)));
  const [undispatched] = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM outbox_events WHERE account_id = ${accountId} AND dispatched_at IS NULL`;
  // A fact recorded twice: one-shot events of the same object.
  const [doubledEvents] = await db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM (
      SELECT event_type, data -> (SELECT min(k) FROM jsonb_object_keys(data) k) ->> 'id' AS object_id
      FROM outbox_events WHERE account_id = ${accountId}
        AND event_type IN ('CUSTOMER_CREATED', 'INVOICE_CREATED', 'INVOICE_FINALIZED', 'INVOICE_PAID', 'SUBSCRIPTION_CREATED', 'PAYMENT_INSTRUMENT_CREATED')
      GROUP BY 1, 2 HAVING count(*) > 1) doubled`;
  const [doubledCharges] = await db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM (SELECT invoice_id FROM payments WHERE account_id IN (${accountId}, ${stripeAccountId}) AND status = 'SUCCEEDED' AND invoice_id IS NOT NULL GROUP BY 1 HAVING count(*) > 1) d`;
  const [inconsistent] = await db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM invoices i
    LEFT JOIN LATERAL (SELECT coalesce(sum(amount), 0) AS paid FROM payments p WHERE p.invoice_id = i.id AND p.status = 'SUCCEEDED') p ON true
    LEFT JOIN LATERAL (SELECT coalesce(sum(amount), 0) AS refunded FROM refunds r WHERE r.invoice_id = i.id AND r.status = 'SUCCEEDED') r ON true
    WHERE i.account_id IN (${accountId}, ${stripeAccountId})
      AND (i.amount_paid <> p.paid OR i.amount_refunded <> r.refunded OR i.amount_paid > i.total_amount
           OR (i.status = 'PAID' AND i.amount_paid <> i.total_amount))`;
  const [renewals] = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM outbox_events WHERE account_id = ${accountId} AND event_type = 'SUBSCRIPTION_RENEWED'`;
  const notRenewed = (await subscriptionsNotRenewed(db, accountId)) + (await subscriptionsNotRenewed(db, stripeAccountId));

  const workflows = await workflowHealth(temporal);
  return {
    events: events.length,
    received: events.filter((id) => seen.has(id)).length,
    renewals: Number(renewals!.n),
    mustBeZero: {
      'charges doubled (invoices with more than one successful payment)': Number(doubledCharges!.n),
      'outbox events doubled (one-shot event twice for one object)': Number(doubledEvents!.n),
      'outbox events not dispatched': Number(undispatched!.n),
      'committed events not delivered to the receiver': events.filter((id) => !seen.has(id)).length,
      'invoices inconsistent with their payments and refunds': Number(inconsistent!.n),
      'subscriptions that never renewed': notRenewed,
      'workflows failed, timed out or terminated': workflows.failed,
      'workflows stuck (an activity or workflow task retrying)': workflows.stuck,
    },
  };
}

/** For a failed run: where each undelivered event got to (its deliveries, their attempts, what the receiver answered). */
async function explainUndelivered(db: ReturnType<typeof createDatabase>, receiver: TestReceiver, eventIds: string[]): Promise<void> {
  for (const eventId of eventIds) {
    const event = await db.outboxEvent.findUnique({ where: { id: eventId }, select: { eventType: true, createdAt: true, dispatchedAt: true } });
    const deliveries = await db.webhookDelivery.findMany({ where: { eventId }, include: { attempts: { orderBy: { attempt: 'asc' } } } });
    const answers = receiver.requests.filter((request) => request.eventId === eventId).map((request) => `${request.status} ${String(request.outcome)}`);
    log(`undelivered ${eventId}: ${event?.eventType} created ${event?.createdAt.toISOString()} dispatched ${event?.dispatchedAt?.toISOString() ?? 'never'}; receiver answered [${answers.join(', ')}]`);
    for (const d of deliveries) {
      log(`  delivery ${d.id} ${d.status} handler ${d.handler} attempts ${d.attemptCount} next ${d.nextAttemptAt?.toISOString() ?? '-'} lease ${d.leaseUntil?.toISOString() ?? '-'}`);
      for (const a of d.attempts) log(`    attempt ${a.attempt} at ${a.requestedAt.toISOString()}: ${a.responseStatus ?? '-'} ${a.error ?? 'ok'} (${a.durationMs} ms)`);
    }
  }
}

async function subscriptionsNotRenewed(db: ReturnType<typeof createDatabase>, accountId: string): Promise<number> {
  const [row] = await db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM subscriptions s WHERE s.account_id = ${accountId} AND NOT EXISTS (
      SELECT 1 FROM outbox_events e WHERE e.account_id = ${accountId} AND e.event_type = 'SUBSCRIPTION_RENEWED' AND e.data -> 'subscription' ->> 'id' = s.id)`;
  return Number(row!.n);
}

/** Closed workflows that ended badly, and open ones going nowhere, read through the client. */
async function workflowHealth(server: ClusterServer): Promise<{ failed: number; stuck: number }> {
  const connection = await Connection.connect({ address: server.address });
  try {
    const client = new Client({ connection, namespace: server.namespace });
    const { count: failed } = await client.workflow.count('ExecutionStatus="Failed" OR ExecutionStatus="TimedOut" OR ExecutionStatus="Terminated"');
    let stuck = 0;
    for await (const execution of client.workflow.list({ query: 'ExecutionStatus="Running"' })) {
      const description = await client.workflow.getHandle(execution.workflowId, execution.runId).describe();
      const raw = description.raw;
      const retrying = (raw.pendingActivities ?? []).some((activity) => (activity.attempt ?? 1) >= 3);
      const taskRetrying = (raw.pendingWorkflowTask?.attempt ?? 1) >= 3;
      if (retrying || taskRetrying) {
        stuck++;
        log(`stuck: ${execution.workflowId} (${execution.type})`);
      }
    }
    return { failed, stuck };
  } finally {
    await connection.close();
  }
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the process behind ${url} exited early`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await delay(250);
  }
  throw new Error(`${url} not ready after 180 s`);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(force);
}

main().then(
  // A handle left open by a library must not keep CI waiting once the verdict is printed.
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
