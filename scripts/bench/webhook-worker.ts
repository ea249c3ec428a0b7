import { NativeConnection, Runtime } from '@temporalio/worker';
import { createDatabase } from '../../prisma/client';
import { secretsKey } from '../../services/secrets/secrets-key';
import { temporalSettings } from '../../services/temporal/connection-settings';
import { createWorker, drainWorkerBackground } from '../../worker/create-worker';
import { workerRuntime } from '../../worker/runtime-options';
import { bundleWorkflowsInChild, prebuiltWorkflowBundle } from '../../worker/workflow-bundle';

/**
 * The worker as `worker/main.ts` makes it (its activities, outbox dispatcher and webhook sender),
 * without the housekeeping workflows it starts (worker/maintenance.ts) nor its health server:
 * bench:growth delivers a backlog on its grown database, whose seeded year the retention and
 * idempotency purges would start deleting under the measurement.
 */
async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required.');
  secretsKey();
  Runtime.install((await workerRuntime()).options);
  const db = createDatabase(databaseUrl, Number(process.env.DATABASE_POOL_SIZE ?? 20));
  const { connectionOptions, namespace } = temporalSettings();
  const connection = await NativeConnection.connect(connectionOptions);
  const worker = await createWorker({ connection, db, namespace, workflowBundle: prebuiltWorkflowBundle() ?? (await bundleWorkflowsInChild()) });
  await worker.run();
  await drainWorkerBackground(worker);
  await connection.close();
  await db.$disconnect();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
