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

/** Starts the hourly purge of expired idempotency records unless it runs: the fixed id keeps one. */
export async function ensureIdempotencyPurge(temporal: Client): Promise<void> {
  await temporal.workflow.start<typeof idempotencyPurgeWorkflow>('idempotencyPurgeWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: IDEMPOTENCY_PURGE_WORKFLOW_ID,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [{ intervalMinutes: IDEMPOTENCY_PURGE_INTERVAL_MINUTES }],
    // Platform-wide: no account; ResourceId names the housekeeping itself (docs/operators.md).
    typedSearchAttributes: searchAttributesOf({ resourceId: IDEMPOTENCY_PURGE_WORKFLOW_ID }),
    staticSummary: idempotencyPurgeSummary(IDEMPOTENCY_PURGE_INTERVAL_MINUTES),
  });
}

/** Starts the sweep that finishes abandoned manual pays and refunds every `intervalMinutes`, unless it runs: the fixed id keeps one. */
export async function ensurePaymentSweep(temporal: Client, intervalMinutes: number = PAYMENT_SWEEP_INTERVAL_MINUTES): Promise<void> {
  await temporal.workflow.start<typeof paymentSweepWorkflow>('paymentSweepWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: PAYMENT_SWEEP_WORKFLOW_ID,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [{ intervalMinutes }],
    typedSearchAttributes: searchAttributesOf({ resourceId: PAYMENT_SWEEP_WORKFLOW_ID }),
    staticSummary: paymentSweepSummary(intervalMinutes),
  });
}

/** Starts the retention workflow (docs/retention.md) unless it runs: the fixed id keeps one; a running one keeps its interval. */
export async function ensureRetention(temporal: Client, intervalMinutes: number): Promise<void> {
  await temporal.workflow.start<typeof retentionWorkflow>('retentionWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: RETENTION_WORKFLOW_ID,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [{ intervalMinutes }],
    typedSearchAttributes: searchAttributesOf({ resourceId: RETENTION_WORKFLOW_ID }),
    staticSummary: retentionSummary(intervalMinutes),
  });
}

/** How often the overview's daily roll-up takes in what payments and refunds changed (docs/metrics.md, "Daily roll-up"). */
export const METRICS_ROLLUP_INTERVAL_MINUTES = 1;

/** Starts the metrics roll-up unless it runs: the fixed id keeps one. */
export async function ensureMetricsRollup(temporal: Client, intervalMinutes: number = METRICS_ROLLUP_INTERVAL_MINUTES): Promise<void> {
  await temporal.workflow.start<typeof metricsRollupWorkflow>('metricsRollupWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: METRICS_ROLLUP_WORKFLOW_ID,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [{ intervalMinutes }],
    typedSearchAttributes: searchAttributesOf({ resourceId: METRICS_ROLLUP_WORKFLOW_ID }),
    staticSummary: metricsRollupSummary(intervalMinutes),
  });
}
