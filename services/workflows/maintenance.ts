import type { Client } from '@temporalio/client';
import { idempotencyPurgeSummary, metricsRollupSummary, paymentSweepSummary, retentionSummary } from '../../domain/maintenance-summaries';
import { IDEMPOTENCY_PURGE_WORKFLOW_ID, METRICS_ROLLUP_WORKFLOW_ID, PAYMENT_SWEEP_WORKFLOW_ID, RETENTION_WORKFLOW_ID, TASK_QUEUE } from '../../domain/workflow-ids';
import { searchAttributesOf } from '../../domain/workflow-search-attributes';
import type { idempotencyPurgeWorkflow } from '../../workflows/idempotency-purge';
import type { metricsRollupWorkflow } from '../../workflows/metrics-rollup';
import type { paymentSweepWorkflow } from '../../workflows/payment-sweep';
import type { retentionWorkflow } from '../../workflows/retention';

const IDEMPOTENCY_PURGE_INTERVAL_MINUTES = 60;
/** The payment sweeper's interval unless the worker is told otherwise (worker/payment-sweep-interval.ts). */
export const PAYMENT_SWEEP_INTERVAL_MINUTES = 5;
/** How often the overview's daily roll-up takes in what payments and refunds changed (docs/metrics.md, "Daily roll-up"). */
export const METRICS_ROLLUP_INTERVAL_MINUTES = 1;

type Housekeeping = typeof idempotencyPurgeWorkflow | typeof paymentSweepWorkflow | typeof retentionWorkflow | typeof metricsRollupWorkflow;

/**
 * Starts a housekeeping workflow unless it runs: the fixed id keeps one, and a running one keeps
 * its interval. Platform-wide, it has no account; ResourceId names the housekeeping itself
 * (docs/operators.md).
 */
async function ensureHousekeeping<W extends Housekeeping>(temporal: Client, workflowType: string, workflowId: string, args: Parameters<W>, summary: string): Promise<void> {
  await temporal.workflow.start<W>(workflowType, {
    taskQueue: TASK_QUEUE,
    workflowId,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args,
    typedSearchAttributes: searchAttributesOf({ resourceId: workflowId }),
    staticSummary: summary,
  });
}

/** The hourly purge of expired idempotency records. */
export function ensureIdempotencyPurge(temporal: Client): Promise<void> {
  const intervalMinutes = IDEMPOTENCY_PURGE_INTERVAL_MINUTES;
  return ensureHousekeeping<typeof idempotencyPurgeWorkflow>(temporal, 'idempotencyPurgeWorkflow', IDEMPOTENCY_PURGE_WORKFLOW_ID, [{ intervalMinutes }], idempotencyPurgeSummary(intervalMinutes));
}

/** The sweep that finishes abandoned manual pays and refunds every `intervalMinutes`. */
export function ensurePaymentSweep(temporal: Client, intervalMinutes: number = PAYMENT_SWEEP_INTERVAL_MINUTES): Promise<void> {
  return ensureHousekeeping<typeof paymentSweepWorkflow>(temporal, 'paymentSweepWorkflow', PAYMENT_SWEEP_WORKFLOW_ID, [{ intervalMinutes }], paymentSweepSummary(intervalMinutes));
}

/** The retention workflow (docs/retention.md). */
export function ensureRetention(temporal: Client, intervalMinutes: number): Promise<void> {
  return ensureHousekeeping<typeof retentionWorkflow>(temporal, 'retentionWorkflow', RETENTION_WORKFLOW_ID, [{ intervalMinutes }], retentionSummary(intervalMinutes));
}

/** The metrics roll-up (docs/metrics.md, "Daily roll-up"). */
export function ensureMetricsRollup(temporal: Client, intervalMinutes: number = METRICS_ROLLUP_INTERVAL_MINUTES): Promise<void> {
  return ensureHousekeeping<typeof metricsRollupWorkflow>(temporal, 'metricsRollupWorkflow', METRICS_ROLLUP_WORKFLOW_ID, [{ intervalMinutes }], metricsRollupSummary(intervalMinutes));
}
