import type { ActivityDependencies } from '.';
import { loadSubscriptionState } from '../services/subscriptions/load-state';
import { owedInvoiceCount } from '../services/subscriptions/owed-invoices';
import { refundProrationCredit, type ProrationCredit } from '../services/subscriptions/proration-refund';
import { renewPeriod, type RenewPeriodInput, type RenewPeriodResult } from '../services/subscriptions/renew-period';
import { saveSubscriptionStep, type SaveInput } from '../services/subscriptions/save-step';
import { heartbeating } from './heartbeating';
import { refusalsAsFailures } from './refusals';

export function createSubscriptionActivities(deps: ActivityDependencies) {
  const { db } = deps;
  return {
    loadSubscription: ({ subscriptionId }: { subscriptionId: string }) => loadSubscriptionState({ db }, subscriptionId),
    refundProrationCredit: (input: ProrationCredit) => refundProrationCredit({ db, now: () => new Date() }, input),
    subscriptionInvoicesOwed: ({ subscriptionId }: { subscriptionId: string }) => owedInvoiceCount({ db }, subscriptionId),
    saveSubscription: (input: SaveInput) => refusalsAsFailures(() => saveSubscriptionStep({ db }, input)),
    /** A billing step with its first charge and, paid, its outcome (services/subscriptions/renew-period.ts). */
    renewSubscriptionPeriod: (input: RenewPeriodInput): Promise<RenewPeriodResult> =>
      heartbeating(() => refusalsAsFailures(() => renewPeriod({ db, now: () => new Date() }, input, process.env.DUNNING_RETRY_SCHEDULE_DAYS))),
  };
}
