import { formatMoney, type WorkflowSubject } from './workflow-search-attributes';

/** The invoice a collection workflow serves, as its start knows it. */
export interface CollectedInvoice {
  id: string;
  accountId: string;
  channelId: string;
  customerId: string;
  status: string;
  /** Known when the invoice is collected on its own; a subscription's cycle names its subscription instead. */
  amountDue?: number;
  currency?: string;
  subscriptionId?: string | null;
}

/** The search attributes of an invoice's collection workflow (docs/operators.md). */
export function invoiceCollectionSubject(invoice: CollectedInvoice): WorkflowSubject {
  return { resourceId: invoice.id, accountId: invoice.accountId, channelId: invoice.channelId, customerId: invoice.customerId, billingStatus: invoice.status };
}

/** "Collection of invoice inv_… for cust_… — EUR 10.00", or "… of subscription subs_…". */
export function invoiceCollectionSummary(invoice: CollectedInvoice): string {
  const parts = [`Collection of invoice ${invoice.id}`];
  if (invoice.subscriptionId) parts.push(`of subscription ${invoice.subscriptionId}`);
  parts.push(`for ${invoice.customerId}`);
  const summary = parts.join(' ');
  return invoice.amountDue !== undefined && invoice.currency ? `${summary} — ${formatMoney(invoice.amountDue, invoice.currency)}` : summary;
}
