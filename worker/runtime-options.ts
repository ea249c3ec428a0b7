import { createServer } from 'node:net';
import type { RuntimeOptions } from '@temporalio/worker';
import { createLogger, type LoggerOptions } from '../services/logging/logger';
import { RuntimeLogger } from './runtime-logger';

export interface WorkerRuntime {
  options: RuntimeOptions;
  /** Where the SDK's own Prometheus exporter listens (`host:port`), when it is on. */
  sdkMetricsAddress?: string;
}

/** A free port on the loopback interface, for an exporter only this process reads. */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The options the worker process installs the Temporal Runtime with (before any connection):
 * its logger is the platform's (JSON or readable lines, secrets redacted), core's own lines are
 * forwarded to it, and the SDK's metrics are exported in the Prometheus format at
 * TEMPORAL_METRICS_ADDRESS, or, when only WORKER_HEALTH_PORT is set, on a free loopback port
 * that the health server's `/metrics` merges in (docs/operators.md, "Metrics").
 */
export async function workerRuntime(
  env: NodeJS.ProcessEnv = process.env,
  logger: Pick<LoggerOptions, 'destination' | 'format' | 'level'> = {},
): Promise<WorkerRuntime> {
  const sdkMetricsAddress = env.TEMPORAL_METRICS_ADDRESS ?? (Number(env.WORKER_HEALTH_PORT ?? 0) > 0 ? `127.0.0.1:${await freeLoopbackPort()}` : undefined);
  return {
    sdkMetricsAddress,
    options: {
      logger: new RuntimeLogger(createLogger({ name: 'worker', ...logger })),
      telemetryOptions: {
        logging: { forward: {}, filter: { core: 'WARN', other: 'ERROR' } },
        ...(sdkMetricsAddress ? { metrics: { prometheus: { bindAddress: sdkMetricsAddress } } } : {}),
      },
    },
  };
}
