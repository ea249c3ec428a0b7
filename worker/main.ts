import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { secretsKey } from '../services/secrets/secrets-key';
import { temporalSettings } from '../services/temporal/connection-settings';
import { createDatabase } from '../prisma/client';
import { createWorker } from './create-worker';
import { ensureMaintenanceWorkflows } from './maintenance';

/** Runs the worker on its own: `DATABASE_URL` and Temporal's settings (services/temporal/connection-settings.ts) say where everything is; `SECRETS_KEY` is required. */
async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required.');
  // Webhook deliveries sign with sealed secrets: without the key every one of them would fail.
  secretsKey();
  const db = createDatabase(databaseUrl, Number(process.env.DATABASE_POOL_SIZE ?? 20));
  const { connectionOptions, namespace } = temporalSettings();
  const connection = await NativeConnection.connect(connectionOptions);
  const worker = await createWorker({ connection, db, namespace });
  const clientConnection = await Connection.connect(connectionOptions);
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
