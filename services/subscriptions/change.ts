import type { Client, WorkflowHandle } from '@temporalio/client';
import type { SubscriptionState } from '../../domain/subscriptions/state';
import { stateOfRow } from './repository';
import type { SubscriptionRow } from './subscription-row';
import { refusedAsApiError, updateSubscription } from './workflow-client';

/**
 * The path of every change of a subscription the caller may see (`row`): `precheck` refuses from
 * the read model what the status cannot take (the workflow's run may have ended), with the same
 * domain rule the workflow's validator runs; then the workflow decides through an Update, named
 * by the Idempotency-Key when there is one.
 */
export async function changeThroughWorkflow<Result>(
  deps: { temporal: Client },
  row: SubscriptionRow,
  precheck: (state: SubscriptionState) => void,
  send: (handle: WorkflowHandle, options: { updateId?: string }) => Promise<Result>,
  idempotency: { name: string; apiKeyId: string; key: string } | undefined,
): Promise<Result> {
  refusedAsApiError(() => precheck(stateOfRow(row)));
  return updateSubscription(deps.temporal, row.id, send, idempotency);
}
