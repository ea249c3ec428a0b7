import { Registry } from 'prom-client';
import type { Database } from '../prisma/client';
import { registerBusinessMetrics } from '../services/metrics/business-metrics';

/**
 * The worker's `/metrics` (docs/operators.md, "Metrics"): the process's own and the business
 * gauges from prom-client, followed by the Temporal SDK's metrics read from its Prometheus
 * exporter, so one scrape target carries both. Their names never collide: the SDK's all start
 * with `temporal_`, ours with `billing_`, Node's with `process_` or `nodejs_`.
 */
export class WorkerMetrics {
  readonly registry: Registry;

  /** `processRegistry`: the process's own metrics (processMetrics(), from worker/main.ts). */
  constructor(
    db: Database,
    processRegistry: Registry,
    private readonly sdkMetricsAddress?: string,
  ) {
    const business = new Registry();
    registerBusinessMetrics(business, db);
    this.registry = Registry.merge([processRegistry, business]);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  async exposition(): Promise<string> {
    const [own, sdk] = await Promise.all([this.registry.metrics(), this.sdkMetrics()]);
    return sdk ? `${own}\n${sdk}` : own;
  }

  private async sdkMetrics(): Promise<string | undefined> {
    if (!this.sdkMetricsAddress) return undefined;
    const address = this.sdkMetricsAddress.replace(/^0\.0\.0\.0:/, '127.0.0.1:').replace(/^\[::\]:/, '[::1]:');
    // The exporter lives in this process: if it does not answer, the scrape still carries our own metrics.
    const response = await fetch(`http://${address}/metrics`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
    return response?.ok ? await response.text() : undefined;
  }
}
