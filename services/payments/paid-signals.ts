import type { Client } from '@temporalio/client';
import { signalSubscriptionInvoiceSettled } from '../subscriptions/workflow-client';
import { signalInvoiceStatusChanged } from '../workflows/invoice-collection';
import type { InvoiceObject } from '../invoices/invoice-object';

/**
 * After the commit of a charge that paid the invoice outside its collection workflow: a running
 * dunning wakes to read PAID and ends, and the subscription the invoice bills hears it was
 * settled. Sending them again (a replay, a retried sweep) is harmless.
 */
export async function signalInvoicePaid(temporal: Client, invoice: InvoiceObject): Promise<void> {
  if (invoice.status !== 'PAID') return;
  // A subscription's sent invoice has a collection run too, waiting for its due date.
  if (invoice.collection_method === 'CHARGE_AUTOMATICALLY' || invoice.subscription_id) await signalInvoiceStatusChanged(temporal, invoice.id);
  if (invoice.subscription_id) await signalSubscriptionInvoiceSettled(temporal, invoice.subscription_id, invoice.id);
}
