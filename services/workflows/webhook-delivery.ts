import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { TASK_QUEUE, webhookDeliveryWorkflowId } from '../../domain/workflow-ids';
import { searchAttributesOf } from '../../domain/workflow-search-attributes';
import type { WebhookDeliveryInput, webhookDeliveryWorkflow } from '../../workflows/webhook-delivery';

/**
 * Starts a delivery workflow unless its id was ever used: REJECT_DUPLICATE refuses an id that
 * is running or has closed, so a redelivery repeated starts nothing twice. Returns whether this
 * call started it.
 */
export async function startWebhookDelivery(temporal: Client, workflowId: string, input: WebhookDeliveryInput, accountId: string): Promise<boolean> {
  try {
    await temporal.workflow.start<typeof webhookDeliveryWorkflow>('webhookDeliveryWorkflow', {
      taskQueue: TASK_QUEUE,
      workflowId,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      args: [input],
      ...deliveryMetadata(accountId, input),
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

/**
 * The retries of a delivery whose attempt `firstAttempt - 1` failed (docs/webhooks.md, "Delivery"),
 * as workflow `<event>/delivery/<endpoint>`, its next attempt claimed at `claim`. Started by the
 * sender after the failure's commit, and again by its sweep when that start may have been lost:
 * a run still going is kept (USE_EXISTING), a closed one may be followed by a new run, and the
 * attempt's claim check keeps two runs from both recording.
 */
export async function startDeliveryRetry(
  temporal: Client,
  retry: { accountId: string; eventId: string; endpointId: string; firstAttempt: number; claim: string },
): Promise<void> {
  const { accountId, eventId, endpointId, firstAttempt, claim } = retry;
  const input = { eventId, endpointId, firstAttempt, claim, retry: true };
  await temporal.workflow.start<typeof webhookDeliveryWorkflow>('webhookDeliveryWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: webhookDeliveryWorkflowId(eventId, endpointId),
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    args: [input],
    ...deliveryMetadata(accountId, input),
  });
}

/** A delivery's workflow is found by its endpoint (ResourceId) and account; the event is in its summary. */
function deliveryMetadata(accountId: string, input: WebhookDeliveryInput) {
  return {
    typedSearchAttributes: searchAttributesOf({ resourceId: input.endpointId, accountId }),
    staticSummary: `Deliver ${input.eventId} to ${input.endpointId} from attempt ${input.firstAttempt}`,
  };
}

/** A new round of attempts of a delivery from `firstAttempt` on, claimed at `claim`. */
export function startRedelivery(
  temporal: Client,
  redelivery: { accountId: string; eventId: string; endpointId: string; firstAttempt: number; claim: string },
): Promise<boolean> {
  const { accountId, eventId, endpointId, firstAttempt, claim } = redelivery;
  const workflowId = webhookRedeliveryWorkflowId(webhookDeliveryWorkflowId(eventId, endpointId), firstAttempt, claim);
  return startWebhookDelivery(temporal, workflowId, { eventId, endpointId, firstAttempt, claim, redelivery: true }, accountId);
}
