import type { UpdateRequestKey } from '../../services/subscriptions/workflow-client';
import type { AuthorizedContext } from '../trpc';

/** The request's Idempotency-Key, which names the workflow Update so a retried request is one change. */
export function updateRequestKey(ctx: AuthorizedContext): UpdateRequestKey | undefined {
  return ctx.idempotencyKey ? { apiKeyId: ctx.principal.apiKeyId, key: ctx.idempotencyKey } : undefined;
}
