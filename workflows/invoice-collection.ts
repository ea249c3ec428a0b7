import { condition, getExternalWorkflowHandle, patched, proxyActivities, setCurrentDetails, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { CHARGE_HEARTBEAT_TIMEOUT_MS } from '../domain/charge-heartbeats';
import { waitingUntil } from '../domain/workflow-details';
import { keepBillingStatus } from './billing-status';
import { invoiceStatusChangedSignal } from './invoice-collection-messages';
import { invoiceDunningStartedSignal } from './subscription-messages';

// Unlimited attempts: an attempt must finish (its key makes every retry the same charge).
const RETRY = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' };

const { planInvoiceCollection, invoiceCollectionStatus, invoicePastDue } = proxyActivities<Activities>({ startToCloseTimeout: '5 minutes', retry: RETRY });

/** The charge heartbeats (domain/charge-heartbeats.ts): a dead worker's attempt is retried within seconds. */
const { attemptInvoiceCollection } = proxyActivities<Activities>({ startToCloseTimeout: '5 minutes', heartbeatTimeout: CHARGE_HEARTBEAT_TIMEOUT_MS, retry: RETRY });

/** An object so later callers (subscriptions) can add fields without breaking running workflows. */
export interface InvoiceCollectionInput {
  invoiceId: string;
  /** Days after the first failure at which to retry; else the worker's DUNNING_RETRY_SCHEDULE_DAYS, else 1, 3, 5, 7. */
  retryScheduleDays?: number[];
  /**
   * The workflow of the subscription the invoice bills: told when dunning began (the first
   * charge failed, or a sent invoice is past due): the subscription enters REDEMPTION. Absent on
   * runs started before it existed.
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
 * Collects a finalized invoice (docs/dunning.md). CHARGE_AUTOMATICALLY: a first charge, then, if
 * it failed with a retryable decline, dunning retries at fixed offsets from that failure until
 * one succeeds (PAID) or none is left (UNPAID). A sent (SEND_INVOICE) invoice with a due date,
 * as subscriptions billed by invoice issue: nothing is charged; still owed at its due date it
 * enters dunning, and at the schedule's last offset after it, UNPAID. Every transition and event
 * happens inside an activity, in one transaction. A void or manual pay elsewhere signals
 * `invoiceStatusChanged`: the workflow re-reads the invoice and ends if nothing is owed; every
 * activity re-reads it as well, so a lost signal only delays the end to the next due time.
 *
 * History is bounded: at most 1 + MAX_RETRIES (20) attempts, each an activity and a timer, plus
 * one signal per status change, after which the run ends; no continue-as-new is needed.
 */
export async function invoiceCollectionWorkflow(input: InvoiceCollectionInput): Promise<InvoiceCollectionResult> {
  const invoiceId = input.invoiceId;
  /** The invoice's status as an activity read or made it, on the run's BillingStatus (docs/operators.md). */
  function seen<T extends { status: string }>(result: T): T {
    // A rolled-back finalize leaves no invoice: nothing to show.
    if (result.status !== 'MISSING') keepBillingStatus({ resourceId: invoiceId, billingStatus: result.status });
    return result;
  }
  let changed = false;
  setHandler(invoiceStatusChangedSignal, () => {
    changed = true;
  });

  /** Sleeps until `due` (workflow time); the invoice's status if it stopped being owed meanwhile. */
  async function owedUntil(due: number, purpose: string): Promise<string | undefined> {
    setCurrentDetails(waitingUntil(due, purpose));
    while (Date.now() < due) {
      if (await condition(() => changed, due - Date.now())) {
        changed = false;
        const now = seen(await invoiceCollectionStatus.executeWithOptions({ summary: `Read the status of ${invoiceId}` }, [{ invoiceId }]));
        if (!now.collectible) return now.status;
      }
    }
    return undefined;
  }

  const plan = await planInvoiceCollection.executeWithOptions({ summary: `Plan the collection of ${invoiceId}` }, [
    { invoiceId, retryScheduleDays: input.retryScheduleDays },
  ]);
  const { retryDelaysMs } = plan;
  // A sent invoice takes new commands (a timer, no charge), marked as a patch; runs from before it
  // recorded plans without dueAt and never come here.
  if (plan.dueAt !== undefined && patched('sent-invoice-due-date')) {
    const settled = await owedUntil(plan.dueAt, `for the due date of ${invoiceId}, then dunning if it is still owed`);
    if (settled) return { status: settled, attempts: 0 };
    const overdue = seen(await invoicePastDue.executeWithOptions({ summary: `${invoiceId} is past due: start dunning` }, [{ invoiceId, final: false }]));
    if (overdue.status !== 'DUNNING') return { status: overdue.status, attempts: 0 };
    if (input.subscriptionWorkflowId) await tellSubscription(input.subscriptionWorkflowId, input.invoiceId);
    const late = await owedUntil(plan.dueAt + (retryDelaysMs.at(-1) ?? 0), `to mark ${invoiceId} UNPAID if it is still owed`);
    if (late) return { status: late, attempts: 0 };
    const final = seen(await invoicePastDue.executeWithOptions({ summary: `${invoiceId} still owed after dunning: UNPAID` }, [{ invoiceId, final: true }]));
    return { status: final.status, attempts: 0 };
  }
  let firstFailureAt = 0;
  for (let attempt = 0; ; attempt++) {
    const result = seen(
      await attemptInvoiceCollection.executeWithOptions({ summary: `Charge ${invoiceId}, attempt ${attempt + 1} of ${retryDelaysMs.length + 1}` }, [
        { invoiceId, attempt, retriesLeft: retryDelaysMs.length - attempt },
      ]),
    );
    if (!result.retry) return { status: result.status, attempts: attempt + 1 };
    // Workflow time: replayed from history, so the schedule is deterministic.
    if (attempt === 0) {
      firstFailureAt = Date.now();
      if (input.subscriptionWorkflowId) await tellSubscription(input.subscriptionWorkflowId, input.invoiceId);
    }
    const settled = await owedUntil(firstFailureAt + retryDelaysMs[attempt]!, `to charge ${invoiceId} again, attempt ${attempt + 2} of ${retryDelaysMs.length + 1}`);
    if (settled) return { status: settled, attempts: attempt + 1 };
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
