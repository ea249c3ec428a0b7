import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { secretsKey } from '../services/secrets/secrets-key';
import { createDatabase } from '../prisma/client';
import { createWorker } from './create-worker';
import { ensureMaintenanceWorkflows } from './maintenance';
import { maxCachedWorkflowsFromEnv } from './workflow-cache';
import { bundleWorkflowsInChild } from './workflow-bundle';

/** Runs the worker on its own: `DATABASE_URL` and `TEMPORAL_ADDRESS` say where everything is; `SECRETS_KEY` is required. */
async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required.');
  // Webhook deliveries sign with sealed secrets: without the key every one of them would fail.
  secretsKey();
  const maxCachedWorkflows = maxCachedWorkflowsFromEnv();
  const db = createDatabase(databaseUrl, Number(process.env.DATABASE_POOL_SIZE ?? 20));
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' });
  const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
  const worker = await createWorker({ connection, db, namespace, workflowBundle: await bundleWorkflowsInChild(), maxCachedWorkflows });
  const clientConnection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' });
  await ensureMaintenanceWorkflows(new Client({ connection: clientConnection, namespace }));
  await clientConnection.close();
  // The SDK shuts the worker down gracefully on SIGINT and SIGTERM; run() resolves after it drains.
  await worker.run();
  await connection.close();
  await db.$disconnect();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
