import { createServer, type Server } from 'node:http';
import type { Client } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import type { Database } from '../prisma/client';
import { recentReadiness } from '../services/health/readiness';
import type { WorkerMetrics } from './metrics';

/**
 * The worker's readiness signal (docs/deployment.md, "Health"), on WORKER_HEALTH_PORT when set:
 * `GET /health/live` answers while the process runs; `GET /health/ready` is 200 only while the
 * Temporal worker is RUNNING (polling its task queue) and the database, the migrations and
 * Temporal check out as for the API (those checks at most READINESS_TTL_MS old). A stopping worker
 * turns unready at once. `GET /metrics`
 * serves the worker's metrics in the Prometheus format (docs/operators.md, "Metrics").
 */
export function startWorkerHealthServer(port: number, deps: { worker: Worker; db: Database; temporal: Client; metrics?: WorkerMetrics }): Promise<Server> {
  const readiness = recentReadiness(deps);
  const server = createServer((request, response) => {
    const send = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET') return send(405, { status: 'method_not_allowed' });
    if (path === '/health/live') return send(200, { status: 'live' });
    if (path === '/metrics' && deps.metrics) {
      const { metrics } = deps;
      metrics.exposition().then(
        (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(text),
        () => send(503, { status: 'metrics_unavailable' }),
      );
      return;
    }
    if (path !== '/health/ready') return send(404, { status: 'not_found' });
    const state = deps.worker.getState();
    if (state !== 'RUNNING') return send(503, { status: 'not_ready', worker: state });
    readiness().then(
      ({ ready, checks }) => send(ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready', worker: state, checks }),
      () => send(503, { status: 'not_ready', worker: state }),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, process.env.WORKER_HEALTH_HOST ?? '127.0.0.1', () => resolve(server));
  });
}
