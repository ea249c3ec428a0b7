import type { Client } from '@temporalio/client';
import { formatDateTime } from '../../domain/datetime';
import { paymentInstrumentExpiryWorkflowId, TASK_QUEUE } from '../../domain/workflow-ids';
import { searchAttributesOf } from '../../domain/workflow-search-attributes';
import type { paymentInstrumentExpiryWorkflow } from '../../workflows/payment-instrument-expiry';

/** Starts the workflow that expires the instrument at `expiresAt`, the end of its expiry month. */
export async function startPaymentInstrumentExpiry(
  temporal: Client,
  instrument: { id: string; accountId: string; channelId: string; customerId: string },
  expiresAt: Date,
): Promise<void> {
  await temporal.workflow.start<typeof paymentInstrumentExpiryWorkflow>('paymentInstrumentExpiryWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: paymentInstrumentExpiryWorkflowId(instrument.id),
    args: [{ paymentInstrumentId: instrument.id, expiresAt: expiresAt.toISOString() }],
    typedSearchAttributes: searchAttributesOf({ resourceId: instrument.id, accountId: instrument.accountId, channelId: instrument.channelId, customerId: instrument.customerId }),
    staticSummary: `Expire payment instrument ${instrument.id} of ${instrument.customerId} at ${formatDateTime(expiresAt)}`,
  });
}
