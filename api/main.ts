import { Client, Connection } from '@temporalio/client';
import { createDatabase } from '../prisma/client';
import { apiConfigFromEnv } from './config';
import { temporalSettings } from '../services/temporal/connection-settings';
import { shutdownTimeoutMs } from './http/shutdown';
import { urlSigningKey } from '../services/files/config';
import { sealClearFingerprintKeys } from './secrets/card-fingerprint-key';
import { secretsKey } from '../services/secrets/secrets-key';
import { buildServer } from './http/server';
import { ApiMetrics } from './http/metrics';
import { metricsListenerFromEnv, startMetricsServer } from './http/metrics-server';
import { processMetrics } from '../services/metrics/process-metrics';

/** Runs the HTTP API on its own: `DATABASE_URL`, Temporal's settings (services/temporal/connection-settings.ts), `PORT`, `SECRETS_KEY`, `URL_SIGNING_KEY`; `/metrics` on `METRICS_PORT` when set. */
async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required.');
  // Both keys are needed by some operations (webhooks/create, reports/download): missing, they
  // stop the start here rather than fail those requests with a 500 later.
  const key = secretsKey();
  if (!urlSigningKey()) throw new Error('URL_SIGNING_KEY is not set (docs/configuration.md).');
  const db = createDatabase(databaseUrl, Number(process.env.DATABASE_POOL_SIZE ?? 20));
  const config = apiConfigFromEnv(db);
  await sealClearFingerprintKeys(db, key);
  // Lazy: the API serves what needs no workflow while Temporal is still starting or briefly away.
  const { connectionOptions, namespace } = temporalSettings();
  const connection = Connection.lazy(connectionOptions);
  const temporal = new Client({ connection, namespace });
  const metrics = new ApiMetrics(processMetrics());
  const server = buildServer(
    { db, temporal, rateLimiter: config.rateLimiter, secretCache: config.secretCache, usageLateEventDays: config.usageLateEventDays },
    { bodyLimitBytes: config.bodyLimitBytes, logLevel: config.logLevel, publicUrl: process.env.PUBLIC_URL, metrics },
  );
  const metricsListener = metricsListenerFromEnv(process.env);
  const metricsServer = metricsListener ? await startMetricsServer(metricsListener.port, metricsListener.host, metrics.registry) : undefined;
  await server.listen({ port: config.port, host: config.host });
  const stop = async () => {
    // Bounded: in-flight requests get SHUTDOWN_TIMEOUT_MS to finish, then the process goes anyway.
    setTimeout(() => process.exit(1), shutdownTimeoutMs()).unref();
    metricsServer?.close();
    await server.close();
    await connection.close();
    await db.$disconnect();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
