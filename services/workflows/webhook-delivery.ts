import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { TASK_QUEUE, webhookDeliveryWorkflowId } from '../../domain/workflow-ids';
import type { WebhookDeliveryInput, webhookDeliveryWorkflow } from '../../workflows/webhook-delivery';

/**
 * Starts a delivery workflow unless its id was ever used: REJECT_DUPLICATE refuses an id that
 * is running or has closed, so a dispatcher that runs again after a crash, or a redelivery
 * repeated, starts nothing twice. Returns whether this call started it.
 *
 * `eager`: only for a client on the worker's own NativeConnection (the outbox dispatcher): the
 * server may then hand the first workflow task straight back in the start response, saving a
 * round trip through the task queue. Any other client must leave it off (the SDK refuses it).
 */
export async function startWebhookDelivery(
  temporal: Client,
  workflowId: string,
  input: WebhookDeliveryInput,
  options: { eager?: boolean } = {},
): Promise<boolean> {
  try {
    await temporal.workflow.start<typeof webhookDeliveryWorkflow>('webhookDeliveryWorkflow', {
      taskQueue: TASK_QUEUE,
      workflowId,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      ...(options.eager ? { requestEagerStart: true } : {}),
      args: [input],
    });
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
}

/**
 * A redelivery's workflow id: the delivery's own, the attempt number it starts at and its claim
 * (the instant of the redelivery). The claim makes it unique: a redelivery whose transaction
 * rolled back after starting its workflow leaves the attempt number unchanged, and the next one
 * must not be refused the id of that dead run.
 */
export function webhookRedeliveryWorkflowId(deliveryWorkflowId: string, firstAttempt: number, claim: string): string {
  return `${deliveryWorkflowId}/redelivery/${firstAttempt}/${claim}`;
}

/** The first delivery of an outbox event to an endpoint, claimed at the instant the event occurred. */
export function startFirstDelivery(
  temporal: Client,
  delivery: { eventId: string; endpointId: string; occurredAt: Date },
  options: { eager?: boolean } = {},
): Promise<boolean> {
  const { eventId, endpointId } = delivery;
  return startWebhookDelivery(
    temporal,
    webhookDeliveryWorkflowId(eventId, endpointId),
    { eventId, endpointId, firstAttempt: 1, claim: delivery.occurredAt.toISOString() },
    options,
  );
}

/** A new round of attempts of a delivery from `firstAttempt` on, claimed at `claim`. */
export function startRedelivery(temporal: Client, redelivery: { eventId: string; endpointId: string; firstAttempt: number; claim: string }): Promise<boolean> {
  const { eventId, endpointId, firstAttempt, claim } = redelivery;
  const workflowId = webhookRedeliveryWorkflowId(webhookDeliveryWorkflowId(eventId, endpointId), firstAttempt, claim);
  return startWebhookDelivery(temporal, workflowId, { eventId, endpointId, firstAttempt, claim, redelivery: true });
}
