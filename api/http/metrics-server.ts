import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

/**
 * The API's `/metrics` on a listener of its own (docs/operators.md, "Metrics"), never on the
 * public port beside `/v2`: the business gauges name every tenant's webhook endpoint ids. It is
 * the operator side, as the worker's WORKER_HEALTH_PORT is: METRICS_PORT on METRICS_HOST
 * (default 127.0.0.1), for Prometheus and nobody else.
 */
export function startMetricsServer(port: number, host: string, registry: Registry): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: this port serves GET /metrics only.\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => response.writeHead(503, { 'content-type': 'text/plain' }).end('Metrics are unavailable.\n'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

/** METRICS_PORT and METRICS_HOST; undefined when METRICS_PORT is unset (no listener). */
export function metricsListenerFromEnv(env: NodeJS.ProcessEnv, defaultPort?: number): { port: number; host: string } | undefined {
  const port = env.METRICS_PORT ? Number(env.METRICS_PORT) : defaultPort;
  if (port === undefined) return undefined;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`METRICS_PORT must be a port number, not ${env.METRICS_PORT}.`);
  return { port, host: env.METRICS_HOST ?? '127.0.0.1' };
}
