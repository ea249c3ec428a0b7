import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { ApiError } from '../../domain/errors';
import { SubscriptionRefused } from '../../domain/subscription-status';
import type { CancelRequest } from '../../domain/subscriptions/cancellation';
import type { SubscriptionState } from '../../domain/subscriptions/state';
import type { SubscriptionChanges } from '../../domain/subscriptions/update';
import { subscriptionSubject, subscriptionSummary } from '../../domain/subscriptions/workflow-metadata';
import { searchAttributesOf } from '../../domain/workflow-search-attributes';
import { subscriptionWorkflowId, TASK_QUEUE } from '../../domain/workflow-ids';
import type { subscriptionWorkflow } from '../../workflows/subscription';
import {
  cancelSubscriptionUpdate,
  deleteCancellationUpdate,
  subscriptionInvoiceSettledSignal,
  updateSubscriptionUpdate,
} from '../../workflows/subscription-messages';
import type { SubscriptionObject } from './subscription-object';

/**
 * Starts the workflow that owns a subscription. Called inside the transaction that wrote the
 * row, after lockSubscriptionStart and before its commit (as startInvoiceCollection does): a
 * crash after the commit cannot leave a subscription nobody bills. The run's first read waits
 * on that lock, so it sees the commit, or after a rollback no row (or a CANCELLED one, for a
 * restore), and ends. The id is reused by a restore once the previous run has closed; a run
 * still open answers 422. `state` is the subscription as this transaction writes it: the run's
 * search attributes and summary (docs/operators.md).
 */
/** A refusal that lasts seconds: nothing was done, and the same request will pass once the run closed. */
export class PreviousRunStillClosing extends ApiError {}

export async function startSubscriptionWorkflow(temporal: Client, state: SubscriptionState): Promise<void> {
  const subscriptionId = state.id;
  try {
    await temporal.workflow.start<typeof subscriptionWorkflow>('subscriptionWorkflow', {
      taskQueue: TASK_QUEUE,
      workflowId: subscriptionWorkflowId(subscriptionId),
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
      args: [{ subscriptionId }],
      typedSearchAttributes: searchAttributesOf(subscriptionSubject(state)),
      staticSummary: subscriptionSummary(state),
    });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) {
      throw new PreviousRunStillClosing('INCOMPATIBLE_STATUS', `Subscription ${subscriptionId} is still closing its previous run; retry in a few seconds.`, {
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

/** The request's Idempotency-Key, which names the workflow Update so a retried request is one change. */
export interface UpdateRequestKey {
  apiKeyId: string;
  key: string;
}

/** The Updates a subscription's workflow takes from outside, each with its argument; `update` is the Update's name, which the updateId of a keyed request starts with. */
export type SubscriptionChange =
  | { update: 'cancel'; request: CancelRequest }
  | { update: 'update'; changes: SubscriptionChanges }
  | { update: 'deleteCancellation' };

/**
 * Sends an Update and waits for its result: the workflow's validator or handler refusing it
 * comes back as an ApplicationFailure whose type is our 422 code, mapped here to the ApiError.
 * The Idempotency-Key, when given, names the update, so a retried request is one change.
 */
export async function sendSubscriptionChange(
  temporal: Client,
  subscriptionId: string,
  change: SubscriptionChange,
  requestKey: UpdateRequestKey | undefined,
): Promise<SubscriptionObject> {
  const handle = temporal.workflow.getHandle<typeof subscriptionWorkflow>(subscriptionWorkflowId(subscriptionId));
  const options = requestKey ? { updateId: `${change.update}/${requestKey.apiKeyId}/${requestKey.key}` } : {};
  try {
    switch (change.update) {
      case 'cancel':
        return await handle.executeUpdate(cancelSubscriptionUpdate, { args: [change.request], ...options });
      case 'update':
        return await handle.executeUpdate(updateSubscriptionUpdate, { args: [change.changes], ...options });
      case 'deleteCancellation':
        return await handle.executeUpdate(deleteCancellationUpdate, options);
    }
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
    await temporal.workflow.getHandle<typeof subscriptionWorkflow>(subscriptionWorkflowId(subscriptionId)).signal(subscriptionInvoiceSettledSignal, { invoiceId });
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
}
