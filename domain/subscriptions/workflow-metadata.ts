import { formatMoney, formatPeriod, type WorkflowSubject } from '../workflow-search-attributes';
import { waitingUntil } from '../workflow-details';
import type { DueKind } from './schedule';
import { recurringPeriod, type SubscriptionState } from './state';

/** The search attributes of a subscription's workflow (docs/operators.md), its status as it is now. */
export function subscriptionSubject(state: SubscriptionState): WorkflowSubject {
  return { resourceId: state.id, accountId: state.accountId, channelId: state.channelId, customerId: state.customerId, billingStatus: state.status };
}

/** "Subscription subs_… for cust_… — EUR 10.00 monthly": the recurring lines' list price per period, before discounts. */
export function subscriptionSummary(state: SubscriptionState): string {
  const recurring = state.lineItems.filter((line) => line.billingType === 'RECURRING').reduce((sum, line) => sum + line.amount * line.quantity, 0);
  return `Subscription ${state.id} for ${state.customerId} — ${formatMoney(recurring, state.currency)} ${formatPeriod(recurringPeriod(state))}`;
}

const DUE_PURPOSES: Record<DueKind, (state: SubscriptionState) => string> = {
  bill: (state) => `to bill cycle ${state.cycleCount + 1}`,
  cancel: () => 'to cancel as scheduled',
  expire: () => 'to end at its ends_at',
  startTrial: () => 'to start the free trial',
};

/**
 * What the subscription's run waits for, as its current details show it: the next step due, or
 * an UNPAID subscription's next look for its invoices settled by hand, whichever comes first.
 */
export function subscriptionWaiting(state: SubscriptionState, due: { kind: DueKind; at: number } | null, recheckAt: number | null): string {
  if (recheckAt !== null && (due === null || recheckAt < due.at)) return waitingUntil(recheckAt, 'to look again for its invoices settled by hand');
  if (due === null) return `Waiting for a change: nothing is scheduled while ${state.status}`;
  return waitingUntil(due.at, DUE_PURPOSES[due.kind](state));
}
