import type { WorkflowHandle } from '@temporalio/client';
import { SubscriptionRefused } from '../../domain/subscription-status';
import type { SubscriptionState } from '../../domain/subscriptions/state';
import type { AuthorizedContext } from '../trpc';
import { stateOfRow, visibleSubscription, type SubscriptionObject } from './repository';
import { refusalError, updateSubscription } from '../../services/subscriptions/workflow-client';

/**
 * The path of every change: the subscription must be visible (404); `precheck` refuses from the
 * read model what the status cannot take (the workflow's run may have ended), with the same
 * domain rule the workflow's validator runs; then the workflow decides through an Update.
 */
export async function changeThroughWorkflow(
  ctx: AuthorizedContext,
  input: { id: string; channel_id?: string },
  updateName: string,
  precheck: (state: SubscriptionState) => void,
  send: (handle: WorkflowHandle, options: { updateId?: string }) => Promise<SubscriptionObject>,
): Promise<SubscriptionObject> {
  const row = await visibleSubscription(ctx.db, ctx, input.id, input.channel_id);
  try {
    precheck(stateOfRow(row));
  } catch (error) {
    if (error instanceof SubscriptionRefused) throw refusalError(error);
    throw error;
  }
  const idempotency = ctx.idempotencyKey ? { name: updateName, apiKeyId: ctx.principal.apiKeyId, key: ctx.idempotencyKey } : undefined;
  return updateSubscription(ctx.temporal, row.id, send, idempotency);
}
