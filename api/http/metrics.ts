import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Histogram, Registry } from 'prom-client';

/** The operation of a request no route knows (an unknown /v2 path included): one label value, whatever was asked. */
const UNMATCHED = 'unmatched';

/**
 * The API's Prometheus metrics (docs/operators.md, "Metrics"). Labels are the operation
 * (`customers/create`, or a route pattern outside /v2) and the HTTP status: bounded sets, never
 * an id, a key or a tenant.
 */
export class ApiMetrics {
  private readonly own = new Registry();
  private readonly duration = new Histogram({
    name: 'billing_api_request_duration_seconds',
    help: 'HTTP requests by operation and status: latency in seconds (its _count is the number of requests).',
    labelNames: ['operation', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.own],
  });
  private readonly replays = new Counter({
    name: 'billing_api_idempotent_replays_total',
    help: 'Requests answered from a stored Idempotency-Key record instead of running again, by operation.',
    labelNames: ['operation'] as const,
    registers: [this.own],
  });
  private readonly rateLimited = new Counter({
    name: 'billing_api_rate_limit_refusals_total',
    help: 'Requests refused with 429 RATE_LIMIT, by operation.',
    labelNames: ['operation'] as const,
    registers: [this.own],
  });

  /** What `/metrics` serves: these and the process's metrics. Made last: a merge copies the metrics registered so far. */
  readonly registry: Registry;

  /** `processRegistry`: the process's own metrics (processMetrics(), from the entry point), served beside the API's. */
  constructor(processRegistry?: Registry) {
    this.registry = Registry.merge([...(processRegistry ? [processRegistry] : []), this.own]);
  }

  observe(operation: string, status: number, seconds: number, replayed: boolean): void {
    const statusLabel = String(status);
    this.duration.observe({ operation, status: statusLabel }, seconds);
    if (replayed) this.replays.inc({ operation });
    if (status === 429) this.rateLimited.inc({ operation });
  }
}

/**
 * Observes every response (`onResponse`: after it is sent, so the latency is the client's). The
 * metrics are served on the operator's listener, not here (api/http/metrics-server.ts).
 */
export function registerMetrics(app: FastifyInstance, metrics: ApiMetrics, operationOf: (request: FastifyRequest) => string | undefined): void {
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions.url;
    // Outside /v2 (health, files, v1) the route's pattern, so a path parameter never becomes a label value.
    const operation = operationOf(request) ?? (route && !route.includes('/v2/') ? route : UNMATCHED);
    metrics.observe(operation, reply.statusCode, reply.elapsedTime / 1000, reply.getHeader('idempotent-replayed') === 'true');
  });
}
