import type { ActivityDependencies } from '.';
import {
  attemptInvoiceCollection,
  invoiceCollectionStatus,
  invoicePastDue,
  planInvoiceCollection,
  type AttemptInput,
  type AttemptResult,
  type CollectionDependencies,
  type CollectionPlan,
  type PastDueInput,
  type PlanInput,
} from '../services/invoices/collection';
import type { ProviderRegistry } from '../services/payments/providers/registry';
import { heartbeating } from './heartbeating';
import { refusalsAsFailures } from './refusals';

export type { AttemptInput, AttemptResult, CollectionPlan, PastDueInput, PlanInput } from '../services/invoices/collection';

export function createInvoiceCollectionActivities(deps: ActivityDependencies & { providers?: ProviderRegistry }) {
  const services: CollectionDependencies = { ...deps, now: () => new Date() };
  return {
    /** docs/dunning.md: the retry delays, with the worker's DUNNING_RETRY_SCHEDULE_DAYS. */
    planInvoiceCollection: (input: PlanInput): Promise<CollectionPlan> =>
      refusalsAsFailures(() => planInvoiceCollection(services, input, process.env.DUNNING_RETRY_SCHEDULE_DAYS)),
    invoicePastDue: (input: PastDueInput): Promise<{ status: string }> => refusalsAsFailures(() => invoicePastDue(services, input)),
    invoiceCollectionStatus: (input: { invoiceId: string }): Promise<{ status: string; collectible: boolean }> =>
      refusalsAsFailures(() => invoiceCollectionStatus(services, input)),
    attemptInvoiceCollection: (input: AttemptInput): Promise<AttemptResult> =>
      heartbeating(() => refusalsAsFailures(() => attemptInvoiceCollection(services, input))),
  };
}
