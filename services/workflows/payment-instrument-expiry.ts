import type { Client } from '@temporalio/client';
import { paymentInstrumentExpiryWorkflowId, TASK_QUEUE } from '../../domain/workflow-ids';
import type { paymentInstrumentExpiryWorkflow } from '../../workflows/payment-instrument-expiry';

/** Starts the workflow that expires the instrument at `expiresAt`, the end of its expiry month. */
export async function startPaymentInstrumentExpiry(temporal: Client, paymentInstrumentId: string, expiresAt: Date): Promise<void> {
  await temporal.workflow.start<typeof paymentInstrumentExpiryWorkflow>('paymentInstrumentExpiryWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: paymentInstrumentExpiryWorkflowId(paymentInstrumentId),
    args: [{ paymentInstrumentId, expiresAt: expiresAt.toISOString() }],
  });
}
