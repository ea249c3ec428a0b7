import type { SubscriptionState } from '../../domain/subscriptions/state';
import type { Database } from '../../prisma/client';
import { lockSubscriptionStart, stateOfRow } from './repository';
import { readSubscriptionRow } from './subscription-read';

/** The row as the workflow's starting state; null when the create (or restore) that started it rolled back. */
export function loadSubscriptionState(deps: { db: Database }, subscriptionId: string): Promise<SubscriptionState | null> {
  return deps.db.$transaction(async (tx) => {
    await lockSubscriptionStart(tx, subscriptionId);
    const row = await readSubscriptionRow(tx, subscriptionId);
    return row ? stateOfRow(row) : null;
  });
}
