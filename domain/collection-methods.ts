/**
 * How an invoice is collected (docs/invoices.md): CHARGE_AUTOMATICALLY on a payment instrument
 * by the collection workflow, or SEND_INVOICE, paid by the customer (invoices/pay) by its due
 * date. Subscriptions bill every invoice one way (docs/subscriptions.md, "Collection").
 */
export const COLLECTION_METHODS = ['CHARGE_AUTOMATICALLY', 'SEND_INVOICE'] as const;
export type CollectionMethod = (typeof COLLECTION_METHODS)[number];
