import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime } from '@temporalio/worker';
import { secretsKey } from '../services/secrets/secrets-key';
import { temporalSettings } from '../services/temporal/connection-settings';
import { createDatabase } from '../prisma/client';
import { createWorker, drainWorkerBackground } from './create-worker';
import { startWorkerHealthServer } from './health-server';
import { ensureMaintenanceWorkflows } from './maintenance';
import { WorkerMetrics } from './metrics';
import { processMetrics } from '../services/metrics/process-metrics';
import { workerRuntime } from './runtime-options';
import { maxCachedWorkflowsFromEnv } from './workflow-cache';
import { bundleWorkflowsInChild, prebuiltWorkflowBundle } from './workflow-bundle';

/** Runs the worker on its own: `DATABASE_URL` and Temporal's settings (services/temporal/connection-settings.ts) say where everything is; `SECRETS_KEY` is required. */
async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required.');
  // Webhook deliveries sign with sealed secrets: without the key every one of them would fail.
  secretsKey();
  const runtime = await workerRuntime();
  Runtime.install(runtime.options);
  const maxCachedWorkflows = maxCachedWorkflowsFromEnv();
  const db = createDatabase(databaseUrl, Number(process.env.DATABASE_POOL_SIZE ?? 20));
  const { connectionOptions, namespace } = temporalSettings();
  const connection = await NativeConnection.connect(connectionOptions);
  const worker = await createWorker({
    connection,
    db,
    namespace,
    workflowBundle: prebuiltWorkflowBundle() ?? (await bundleWorkflowsInChild()),
    maxCachedWorkflows,
    shutdownGraceMs: Number(process.env.WORKER_SHUTDOWN_GRACE_MS ?? 10_000),
  });
  const clientConnection = await Connection.connect(connectionOptions);
  const temporal = new Client({ connection: clientConnection, namespace });
  await ensureMaintenanceWorkflows(temporal);
  const healthPort = Number(process.env.WORKER_HEALTH_PORT ?? 0);
  const health = healthPort > 0 ? await startWorkerHealthServer(healthPort, { worker, db, temporal, metrics: new WorkerMetrics(db, processMetrics(), runtime.sdkMetricsAddress) }) : undefined;
  // The SDK shuts the worker down gracefully on SIGINT and SIGTERM; run() resolves after it drains.
  await worker.run();
  await drainWorkerBackground(worker);
  health?.close();
  await clientConnection.close();
  await connection.close();
  await db.$disconnect();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
