import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { invoiceCollectionSubject, invoiceCollectionSummary, type CollectedInvoice } from '../../domain/invoice-collection-metadata';
import { invoiceCollectionWorkflowId, TASK_QUEUE } from '../../domain/workflow-ids';
import { searchAttributesOf } from '../../domain/workflow-search-attributes';
import type { invoiceCollectionWorkflow } from '../../workflows/invoice-collection';
import { invoiceStatusChangedSignal } from '../../workflows/invoice-collection-messages';

/**
 * Starts the collection of a CHARGE_AUTOMATICALLY invoice. Called inside the finalize
 * transaction, before the commit: started after it, a crash in between would leave an OPEN
 * invoice nobody charges. If the commit fails instead, the workflow reads a DRAFT and ends.
 */
export async function startInvoiceCollection(temporal: Client, invoice: CollectedInvoice): Promise<void> {
  await temporal.workflow.start<typeof invoiceCollectionWorkflow>('invoiceCollectionWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: invoiceCollectionWorkflowId(invoice.id),
    args: [{ invoiceId: invoice.id }],
    typedSearchAttributes: searchAttributesOf(invoiceCollectionSubject(invoice)),
    staticSummary: invoiceCollectionSummary(invoice),
  });
}

/**
 * Tells a running collection that the invoice changed status outside it (voided, paid by
 * hand), so a dunning run ends now rather than at its next attempt. Sent after the commit, so
 * the workflow reads the new status; an invoice that never had a collection has nothing to tell.
 */
export async function signalInvoiceStatusChanged(temporal: Client, invoiceId: string): Promise<void> {
  try {
    await temporal.workflow.getHandle<typeof invoiceCollectionWorkflow>(invoiceCollectionWorkflowId(invoiceId)).signal(invoiceStatusChangedSignal);
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
}
