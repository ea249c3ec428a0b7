import type { ActivityDependencies } from '.';
import { loadSubscriptionState } from '../services/subscriptions/load-state';
import { owedInvoiceCount } from '../services/subscriptions/owed-invoices';
import { refundProrationCredit, type ProrationCredit } from '../services/subscriptions/proration-refund';
import { saveSubscriptionStep, type SaveInput } from '../services/subscriptions/save-step';
import { refusalsAsFailures } from './refusals';

export function createSubscriptionActivities(deps: ActivityDependencies) {
  const { db } = deps;
  return {
    loadSubscription: ({ subscriptionId }: { subscriptionId: string }) => loadSubscriptionState({ db }, subscriptionId),
    refundProrationCredit: (input: ProrationCredit) => refundProrationCredit({ db, now: () => new Date() }, input),
    subscriptionInvoicesOwed: ({ subscriptionId }: { subscriptionId: string }) => owedInvoiceCount({ db }, subscriptionId),
    saveSubscription: (input: SaveInput) => refusalsAsFailures(() => saveSubscriptionStep({ db }, input)),
  };
}
