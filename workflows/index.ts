export { apiKeyRotationWorkflow } from './api-key-rotation';
export { paymentInstrumentExpiryWorkflow } from './payment-instrument-expiry';
export { idempotencyPurgeWorkflow } from './idempotency-purge';
export { invoiceCollectionWorkflow } from './invoice-collection';
export { subscriptionWorkflow } from './subscription';
export { reportExportWorkflow } from './report-export';
export { settlementWorkflow } from './settlement';
export { monthlyStatementWorkflow } from './monthly-statement';
