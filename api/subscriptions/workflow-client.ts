// api/invoices (void, payments) still import the signal from here; they are being moved by
// another change, which will import services/subscriptions/workflow-client directly.
export { signalSubscriptionInvoiceSettled } from '../../services/subscriptions/workflow-client';
