import { condition, defineSignal, getExternalWorkflowHandle, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { invoiceDunningStartedSignal } from './subscription-messages';

const { planInvoiceCollection, invoiceCollectionStatus, attemptInvoiceCollection } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  // Unlimited attempts: an attempt must finish (its key makes every retry the same charge).
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** Sent by invoices/void and invoices/pay after they change the invoice's status (no args). */
export const invoiceStatusChangedSignal = defineSignal('invoiceStatusChanged');

/** An object so later callers (subscriptions) can add fields without breaking running workflows. */
export interface InvoiceCollectionInput {
  invoiceId: string;
  /** Days after the first failure at which to retry; else the worker's DUNNING_RETRY_SCHEDULE_DAYS, else 1, 3, 5, 7. */
  retryScheduleDays?: number[];
  /**
   * The workflow of the subscription the invoice bills: told when the first charge failed and
   * dunning began (the subscription enters REDEMPTION). Absent on runs started before it existed.
   */
  subscriptionWorkflowId?: string;
}

export interface InvoiceCollectionResult {
  /** The invoice's status when the collection ended. */
  status: string;
  /** Charges attempted by this workflow. */
  attempts: number;
}

/**
 * Collects a finalized CHARGE_AUTOMATICALLY invoice (docs/dunning.md): a first charge, then, if
 * it failed with a retryable decline, dunning retries at fixed offsets from that failure until
 * one succeeds (PAID) or none is left (UNPAID). Every transition and event happens inside the
 * attempt activity, in one transaction. A void or manual pay elsewhere signals
 * `invoiceStatusChanged`: the workflow re-reads the invoice and ends if nothing is owed; every
 * attempt re-reads it as well, so a lost signal only delays the end to the next attempt.
 *
 * History is bounded: at most 1 + MAX_RETRIES (20) attempts, each an activity and a timer, plus
 * one signal per status change, after which the run ends; no continue-as-new is needed.
 */
export async function invoiceCollectionWorkflow(input: InvoiceCollectionInput): Promise<InvoiceCollectionResult> {
  let changed = false;
  setHandler(invoiceStatusChangedSignal, () => {
    changed = true;
  });

  const { retryDelaysMs } = await planInvoiceCollection({ retryScheduleDays: input.retryScheduleDays });
  let firstFailureAt = 0;
  for (let attempt = 0; ; attempt++) {
    const result = await attemptInvoiceCollection({ invoiceId: input.invoiceId, attempt, retriesLeft: retryDelaysMs.length - attempt });
    if (!result.retry) return { status: result.status, attempts: attempt + 1 };
    // Workflow time: replayed from history, so the schedule is deterministic.
    if (attempt === 0) {
      firstFailureAt = Date.now();
      if (input.subscriptionWorkflowId) await tellSubscription(input.subscriptionWorkflowId, input.invoiceId);
    }
    const due = firstFailureAt + retryDelaysMs[attempt]!;
    while (Date.now() < due) {
      if (await condition(() => changed, due - Date.now())) {
        changed = false;
        const now = await invoiceCollectionStatus({ invoiceId: input.invoiceId });
        if (!now.collectible) return { status: now.status, attempts: attempt + 1 };
      }
    }
  }
}

/**
 * Best effort: a subscription cancelled meanwhile has no open run to receive it, and the
 * invoice's dunning goes on regardless (the debt stands).
 */
async function tellSubscription(workflowId: string, invoiceId: string): Promise<void> {
  try {
    await getExternalWorkflowHandle(workflowId).signal(invoiceDunningStartedSignal, { invoiceId });
  } catch {
    return;
  }
}
