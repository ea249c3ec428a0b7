import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { invoiceCollectionWorkflowId, TASK_QUEUE } from '../../domain/workflow-ids';

/** Signal name the collection workflow listens on (team contract, docs/invoices.md). */
export const INVOICE_STATUS_CHANGED_SIGNAL = 'invoiceStatusChanged';

/**
 * Starts the collection of a CHARGE_AUTOMATICALLY invoice. Called inside the finalize
 * transaction, before the commit: started after it, a crash in between would leave an OPEN
 * invoice nobody charges. If the commit fails instead, the workflow reads a DRAFT and ends.
 */
export async function startInvoiceCollection(temporal: Client, invoiceId: string): Promise<void> {
  await temporal.workflow.start('invoiceCollectionWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: invoiceCollectionWorkflowId(invoiceId),
    args: [{ invoiceId }],
  });
}

/**
 * Tells a running collection that the invoice changed status outside it (voided, paid by
 * hand), so a dunning run ends now rather than at its next attempt. Sent after the commit, so
 * the workflow reads the new status; an invoice that never had a collection has nothing to tell.
 */
export async function signalInvoiceStatusChanged(temporal: Client, invoiceId: string): Promise<void> {
  try {
    await temporal.workflow.getHandle(invoiceCollectionWorkflowId(invoiceId)).signal(INVOICE_STATUS_CHANGED_SIGNAL);
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
}
