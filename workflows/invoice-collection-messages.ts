import { defineSignal } from '@temporalio/workflow';

/**
 * What the API says to an invoice's collection workflow. Kept apart from the workflow so the
 * services import the definition without the workflow code.
 */

/** Sent by invoices/void and invoices/pay after they change the invoice's status (no args). Running workflows listen on this name. */
export const invoiceStatusChangedSignal = defineSignal('invoiceStatusChanged');
