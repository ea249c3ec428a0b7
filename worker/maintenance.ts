import type { Client } from '@temporalio/client';
import { IDEMPOTENCY_PURGE_WORKFLOW_ID, PAYMENT_SWEEP_WORKFLOW_ID, TASK_QUEUE } from '../domain/workflow-ids';
import type { idempotencyPurgeWorkflow } from '../workflows/idempotency-purge';
import type { paymentSweepWorkflow } from '../workflows/payment-sweep';
import { ensureSettlementSchedules } from './settlement-schedules';

/**
 * Starts the platform's housekeeping workflows unless they already run: every worker start
 * may call this, the fixed workflow ids keep one of each.
 */
export async function ensureMaintenanceWorkflows(client: Client): Promise<void> {
  await client.workflow.start<typeof idempotencyPurgeWorkflow>('idempotencyPurgeWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: IDEMPOTENCY_PURGE_WORKFLOW_ID,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [{ intervalMinutes: 60 }],
  });
  await client.workflow.start<typeof paymentSweepWorkflow>('paymentSweepWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: PAYMENT_SWEEP_WORKFLOW_ID,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [{ intervalMinutes: 5 }],
  });
  await ensureSettlementSchedules(client);
}
