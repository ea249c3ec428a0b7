import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, WorkflowUpdateFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { ApiError } from '../../domain/errors';
import { SubscriptionRefused } from '../../domain/subscription-status';
import { subscriptionWorkflowId, TASK_QUEUE } from '../../domain/workflow-ids';
import type { subscriptionWorkflow } from '../../workflows/subscription';
import { subscriptionInvoiceSettledSignal } from '../../workflows/subscription-messages';

/**
 * Starts the workflow that owns a subscription. Called inside the transaction that wrote the
 * row, after lockSubscriptionStart and before its commit (as startInvoiceCollection does): a
 * crash after the commit cannot leave a subscription nobody bills. The run's first read waits
 * on that lock, so it sees the commit, or after a rollback no row (or a CANCELLED one, for a
 * restore), and ends. The id is reused by a restore once the previous run has closed; a run
 * still open answers 422.
 */
export async function startSubscriptionWorkflow(temporal: Client, subscriptionId: string): Promise<void> {
  try {
    await temporal.workflow.start<typeof subscriptionWorkflow>('subscriptionWorkflow', {
      taskQueue: TASK_QUEUE,
      workflowId: subscriptionWorkflowId(subscriptionId),
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
      args: [{ subscriptionId }],
    });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) {
      throw new ApiError('INCOMPATIBLE_STATUS', `Subscription ${subscriptionId} is still closing its previous run; retry in a few seconds.`, {
        subscription_id: subscriptionId,
      });
    }
    throw error;
  }
}

/** Runs a domain rule outside the workflow: its refusal becomes the ApiError the workflow's would. */
export function refusedAsApiError<T>(rule: () => T): T {
  try {
    return rule();
  } catch (error) {
    if (error instanceof SubscriptionRefused) throw new ApiError(error.code, error.message, error.context);
    throw error;
  }
}

/**
 * Sends an Update and waits for its result: the workflow's validator or handler refusing it
 * comes back as an ApplicationFailure whose type is our 422 code, mapped here to the ApiError.
 * The Idempotency-Key, when given, names the update, so a retried request is one change.
 */
export async function updateSubscription<Result>(
  temporal: Client,
  subscriptionId: string,
  send: (handle: WorkflowHandle, options: { updateId?: string }) => Promise<Result>,
  idempotency?: { name: string; apiKeyId: string; key: string },
): Promise<Result> {
  const handle = temporal.workflow.getHandle(subscriptionWorkflowId(subscriptionId));
  try {
    return await send(handle, idempotency ? { updateId: `${idempotency.name}/${idempotency.apiKeyId}/${idempotency.key}` } : {});
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure && error.cause.type) {
      const context = (error.cause.details?.[0] ?? undefined) as Record<string, unknown> | undefined;
      throw new ApiError(error.cause.type, error.cause.message, context);
    }
    if (error instanceof WorkflowNotFoundError) {
      throw new ApiError('INCOMPATIBLE_STATUS', `Subscription ${subscriptionId} has ended and takes no more changes.`, { subscription_id: subscriptionId });
    }
    throw error;
  }
}

/**
 * Tells the subscription that one of its invoices was paid or voided by hand, after the commit
 * (an UNPAID subscription with nothing left owed becomes ACTIVE). A subscription whose run has
 * ended has nothing to hear.
 */
export async function signalSubscriptionInvoiceSettled(temporal: Client, subscriptionId: string, invoiceId: string): Promise<void> {
  try {
    await temporal.workflow.getHandle(subscriptionWorkflowId(subscriptionId)).signal(subscriptionInvoiceSettledSignal, { invoiceId });
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
}
