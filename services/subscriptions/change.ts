import type { Client } from '@temporalio/client';
import type { SubscriptionState } from '../../domain/subscriptions/state';
import { stateOfRow } from './repository';
import type { SubscriptionObject } from './subscription-object';
import type { SubscriptionRow } from './subscription-row';
import { refusedAsApiError, sendSubscriptionChange, type SubscriptionChange, type UpdateRequestKey } from './workflow-client';

/**
 * The path of every change of a subscription the caller may see (`row`): `precheck` refuses from
 * the read model what the status cannot take (the workflow's run may have ended), with the same
 * domain rule the workflow's validator runs; then the workflow decides through an Update, named
 * by the Idempotency-Key when there is one.
 */
export async function changeThroughWorkflow(
  deps: { temporal: Client },
  row: SubscriptionRow,
  precheck: (state: SubscriptionState) => void,
  change: SubscriptionChange,
  requestKey: UpdateRequestKey | undefined,
): Promise<SubscriptionObject> {
  refusedAsApiError(() => precheck(stateOfRow(row)));
  return sendSubscriptionChange(deps.temporal, row.id, change, requestKey);
}
