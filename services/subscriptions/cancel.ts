import type { Client } from '@temporalio/client';
import { requireTransition, type CancellationMode, type CancellationReason } from '../../domain/subscription-status';
import type { Prisma } from '../../prisma/client';
import type { Scope } from '../scope';
import { changeThroughWorkflow } from './change';
import type { SubscriptionObject } from './subscription-object';
import { visibleSubscription } from './visible';
import type { UpdateRequestKey } from './workflow-client';

export interface CancelSubscriptionInput {
  id: string;
  /** Left out: IMMEDIATELY. */
  mode?: CancellationMode;
  /** Left out: CANCELLATION_REQUESTED. */
  reason?: CancellationReason;
  comment?: string;
  /** The customer portal's caller: only a customer's own cancellation is theirs to undo (docs/portal.md). */
  requestedBy?: 'CUSTOMER';
}

/**
 * subscriptions/cancel (docs/subscriptions.md): the workflow cancels now or schedules the
 * cancellation at the period's end, and answers with the subscription as it left it.
 */
export async function cancelSubscription(
  deps: { db: Prisma.TransactionClient; temporal: Client },
  scope: Scope,
  input: CancelSubscriptionInput,
  requestKey: UpdateRequestKey | undefined,
): Promise<SubscriptionObject> {
  const row = await visibleSubscription(deps.db, scope, input.id);
  const request = {
    mode: input.mode ?? 'IMMEDIATELY',
    reason: input.reason ?? 'CANCELLATION_REQUESTED',
    comment: input.comment ?? null,
    ...(input.requestedBy ? { requestedBy: input.requestedBy } : {}),
  } as const;
  return changeThroughWorkflow(deps, row, (state) => requireTransition('cancel', state.status), { update: 'cancel', request }, requestKey);
}
