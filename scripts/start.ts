import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime } from '@temporalio/worker';
import { apiConfigFromEnv } from '../api/config';
import { ensureUrlSigningKey } from '../services/files/config';
import { sealClearFingerprintKeys } from '../api/secrets/card-fingerprint-key';
import { ensureSecretsKey, secretsKey } from '../services/secrets/secrets-key';
import { ApiMetrics } from '../api/http/metrics';
import { metricsListenerFromEnv, startMetricsServer } from '../api/http/metrics-server';
import { buildServer } from '../api/http/server';
import { registerBusinessMetrics } from '../services/metrics/business-metrics';
import { processMetrics } from '../services/metrics/process-metrics';
import { workerRuntime } from '../worker/runtime-options';
import { createDatabase } from '../prisma/client';
import { temporalConfigured, temporalSettings } from '../services/temporal/connection-settings';
import { createWorker, drainWorkerBackground } from '../worker/create-worker';
import { ensureMaintenanceWorkflows } from '../worker/maintenance';
import { applyPendingMigrations } from './db/migrations';
import { bootstrapFirstAccount } from './operator/accounts';
import { inviteFirstAdmin } from '../services/dashboard/first-admin';
import { formatDateTime } from '../domain/datetime';
import { ensureDatabase, startEmbeddedPostgres } from './postgres/embedded';
import { ensureTemporalCli, startTemporalDevServer } from './temporal/cli';

const ROOT = resolve(__dirname, '..');
const DATA_DIR = resolve(process.env.DATA_DIR ?? join(ROOT, '.data'));
const log = (message: string) => console.log(`[start] ${message}`);
/** The port Prometheus exporters conventionally take; METRICS_PORT overrides it. */
const DEFAULT_METRICS_PORT = 9464;

/**
 * `npm start`: the whole platform on embedded defaults. PostgreSQL and the Temporal dev
 * server are started here unless DATABASE_URL / TEMPORAL_ADDRESS point elsewhere; the worker
 * and the API run in this process. Ctrl-C stops everything in reverse order.
 */
async function main(): Promise<void> {
  mkdirSync(DATA_DIR, { recursive: true });
  ensureUrlSigningKey(DATA_DIR);
  ensureSecretsKey(DATA_DIR);
  // Local development: webhook receivers on this machine (docs/webhooks.md); never set in production.
  process.env.WEBHOOK_ALLOW_LOOPBACK ??= 'true';
  const stops: Array<() => Promise<unknown>> = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping…');
    for (const stop of stops.reverse()) {
      await stop().catch((error) => console.error('[start] while stopping:', error));
    }
    log('stopped');
    process.exit(code);
  };
  // The Temporal runtime would shut the worker down by itself on a signal, cutting the ordered
  // shutdown short. This launcher owns the signals instead.
  // No worker health server here: the SDK's exporter runs only where TEMPORAL_METRICS_ADDRESS puts it.
  Runtime.install({ ...(await workerRuntime({ TEMPORAL_METRICS_ADDRESS: process.env.TEMPORAL_METRICS_ADDRESS })).options, shutdownSignals: [] });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void stopAll(0));
  }

  try {
    let databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl) {
      const port = Number(process.env.POSTGRES_PORT ?? 5433);
      const postgres = await startEmbeddedPostgres({ dataDir: join(DATA_DIR, 'postgres'), port, persistent: true });
      stops.push(() => postgres.stop());
      await ensureDatabase(postgres.adminUrl, 'billing');
      databaseUrl = postgres.urlFor('billing');
      log(`PostgreSQL on 127.0.0.1:${port} (data in ${postgres.dataDir})`);
      if (postgres.relocation) log(`  not in ${join(DATA_DIR, 'postgres')}: ${postgres.relocation}`);
    }
    const applied = await applyPendingMigrations(databaseUrl);
    log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date');

    const external = temporalConfigured();
    const settings = temporalSettings();
    const namespace = settings.namespace;
    let connectionOptions = settings.connectionOptions;
    let temporalUi = process.env.TEMPORAL_UI_URL ?? '(external Temporal: see its own UI)';
    if (!external) {
      await ensureTemporalCli();
      const temporal = await startTemporalDevServer({
        dataDir: DATA_DIR,
        port: Number(process.env.TEMPORAL_PORT ?? 7233),
        uiPort: Number(process.env.TEMPORAL_UI_PORT ?? 8233),
        namespace,
      });
      stops.push(() => temporal.stop());
      connectionOptions = { address: temporal.address };
      temporalUi = temporal.uiUrl;
    }

    const db = createDatabase(databaseUrl, Number(process.env.DATABASE_POOL_SIZE ?? 20));
    stops.push(() => db.$disconnect());
    const sealed = await sealClearFingerprintKeys(db, secretsKey());
    if (sealed) log(`sealed the card fingerprint keys of ${sealed} account(s) with SECRETS_KEY`);

    const workerConnection = await NativeConnection.connect(connectionOptions);
    stops.push(() => workerConnection.close());
    const worker = await createWorker({ connection: workerConnection, db, namespace });
    const workerRun = worker.run();
    stops.push(async () => {
      worker.shutdown();
      await workerRun;
      await drainWorkerBackground(worker);
    });

    const clientConnection = await Connection.connect(connectionOptions);
    stops.push(() => clientConnection.close());
    const temporalClient = new Client({ connection: clientConnection, namespace });
    await ensureMaintenanceWorkflows(temporalClient);
    const config = apiConfigFromEnv(db);
    const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${config.port}`;
    // One process runs both here, so the API's /metrics carries the worker's business gauges too.
    const metrics = new ApiMetrics(processMetrics());
    registerBusinessMetrics(metrics.registry, db);
    const server = buildServer(
      { db, temporal: temporalClient, rateLimiter: config.rateLimiter, secretCache: config.secretCache },
      { bodyLimitBytes: config.bodyLimitBytes, logLevel: process.env.LOG_LEVEL ?? 'warn', publicUrl, metrics },
    );
    await server.listen({ port: config.port, host: config.host });
    stops.push(() => server.close());
    // The operator side: never on the public port (docs/operators.md, "Metrics").
    const metricsListener = metricsListenerFromEnv(process.env, DEFAULT_METRICS_PORT)!;
    const metricsServer = await startMetricsServer(metricsListener.port, metricsListener.host, metrics.registry);
    stops.push(() => new Promise<void>((done) => metricsServer.close(() => done())));

    const bootstrap = await bootstrapFirstAccount(db);
    if (bootstrap) {
      log('first start: created an account, a default channel and an account-level key with every permission');
      log(`  account ${bootstrap.accountId}, channel ${bootstrap.channelId}, key ${bootstrap.apiKeyId}`);
      log(`  secret (shown once, store it now): ${bootstrap.secret}`);
    }
    const firstAdmin = await inviteFirstAdmin(db, new Date());
    if (firstAdmin) {
      log(`first dashboard sign-in (once, until ${formatDateTime(firstAdmin.expiresAt)}; sets the password of ${firstAdmin.email}, a MERCHANT_ADMIN):`);
      log(`  ${firstAdmin.url}`);
    }
    log(`API          ${publicUrl}/v2/…`);
    log(`API docs     ${publicUrl}/docs  (OpenAPI: ${publicUrl}/openapi.json)`);
    log(`Dashboard    ${publicUrl}/dashboard/`);
    log(`Temporal UI  ${temporalUi}`);
    log(`Metrics      http://${metricsListener.host}:${metricsListener.port}/metrics  (operators only: Prometheus)`);
    log('ready; Ctrl-C stops everything');
    workerRun.catch((error) => {
      console.error('[start] worker failed:', error);
      void stopAll(1);
    });
  } catch (error) {
    console.error('[start] failed:', error);
    await stopAll(1);
  }
}

void main();
