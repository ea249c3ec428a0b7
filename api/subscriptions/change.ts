import type { WorkflowHandle } from '@temporalio/client';
import type { SubscriptionState } from '../../domain/subscriptions/state';
import { changeThroughWorkflow } from '../../services/subscriptions/change';
import type { SubscriptionObject } from '../../services/subscriptions/subscription-object';
import type { AuthorizedContext } from '../trpc';
import { visibleSubscription } from './visible-subscription';

/** A change of a subscription the caller may see (404 otherwise), under the request's Idempotency-Key. */
export async function changeVisibleSubscription(
  ctx: AuthorizedContext,
  input: { id: string; channel_id?: string },
  updateName: string,
  precheck: (state: SubscriptionState) => void,
  send: (handle: WorkflowHandle, options: { updateId?: string }) => Promise<SubscriptionObject>,
): Promise<SubscriptionObject> {
  const row = await visibleSubscription(ctx.db, ctx, input.id, input.channel_id);
  return changeThroughWorkflow({ temporal: ctx.temporal }, row, precheck, send, updateIdempotency(ctx, updateName));
}

/** The request's Idempotency-Key, which names the workflow Update so a retried request is one change. */
export function updateIdempotency(ctx: AuthorizedContext, updateName: string): { name: string; apiKeyId: string; key: string } | undefined {
  return ctx.idempotencyKey ? { name: updateName, apiKeyId: ctx.principal.apiKeyId, key: ctx.idempotencyKey } : undefined;
}
