import type { Client } from '@temporalio/client';
import { validateDeleteCancellation } from '../../domain/subscriptions/cancellation';
import type { Prisma } from '../../prisma/client';
import type { Scope } from '../scope';
import { changeThroughWorkflow } from './change';
import type { SubscriptionObject } from './subscription-object';
import { visibleSubscription } from './visible';
import type { UpdateRequestKey } from './workflow-client';

/** subscriptions/delete-cancellation: the workflow drops a scheduled PERIOD_END cancellation and billing goes on. */
export async function deleteSubscriptionCancellation(
  deps: { db: Prisma.TransactionClient; temporal: Client },
  scope: Scope,
  subscriptionId: string,
  requestKey: UpdateRequestKey | undefined,
): Promise<SubscriptionObject> {
  const row = await visibleSubscription(deps.db, scope, subscriptionId);
  return changeThroughWorkflow(deps, row, validateDeleteCancellation, { update: 'deleteCancellation' }, requestKey);
}
