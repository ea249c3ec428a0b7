import { formatMoney, formatPeriod, type WorkflowSubject } from '../workflow-search-attributes';
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
