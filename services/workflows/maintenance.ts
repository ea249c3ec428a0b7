import type { Client } from '@temporalio/client';
import { IDEMPOTENCY_PURGE_WORKFLOW_ID, PAYMENT_SWEEP_WORKFLOW_ID, TASK_QUEUE } from '../../domain/workflow-ids';
import type { idempotencyPurgeWorkflow } from '../../workflows/idempotency-purge';
import type { paymentSweepWorkflow } from '../../workflows/payment-sweep';

/** Starts the hourly purge of expired idempotency records unless it runs: the fixed id keeps one. */
export async function ensureIdempotencyPurge(temporal: Client): Promise<void> {
  await temporal.workflow.start<typeof idempotencyPurgeWorkflow>('idempotencyPurgeWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: IDEMPOTENCY_PURGE_WORKFLOW_ID,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [{ intervalMinutes: 60 }],
  });
}

/** Starts the sweep that finishes abandoned manual pays and refunds every 5 minutes, unless it runs: the fixed id keeps one. */
export async function ensurePaymentSweep(temporal: Client): Promise<void> {
  await temporal.workflow.start<typeof paymentSweepWorkflow>('paymentSweepWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: PAYMENT_SWEEP_WORKFLOW_ID,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [{ intervalMinutes: 5 }],
  });
}
