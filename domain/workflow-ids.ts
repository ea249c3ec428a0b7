/**
 * Workflow ids are how operators find a process in the Temporal UI: the resource's own id
 * first, then what the workflow does, so `WorkflowId STARTS_WITH "akey_…"` lists them all.
 */
export const TASK_QUEUE = 'billing';

/** One per rotation, named by the secret the rotation issued. */
export function apiKeyRotationWorkflowId(apiKeyId: string, issuedSecretRecordId: string): string {
  return `${apiKeyId}/rotation/${issuedSecretRecordId}`;
}

/** One per instrument: it expires once. */
export function paymentInstrumentExpiryWorkflowId(paymentInstrumentId: string): string {
  return `${paymentInstrumentId}/expiry`;
}

/** One per invoice: charging it and, after a retryable decline, dunning it. */
export function invoiceCollectionWorkflowId(invoiceId: string): string {
  return `${invoiceId}/collection`;
}

/** Housekeeping has no resource of its own: it lives under `maintenance/`. */
export const IDEMPOTENCY_PURGE_WORKFLOW_ID = 'maintenance/idempotency-purge';
export const PAYMENT_SWEEP_WORKFLOW_ID = 'maintenance/payment-sweep';
export const RETENTION_WORKFLOW_ID = 'maintenance/retention';
export const METRICS_ROLLUP_WORKFLOW_ID = 'maintenance/metrics-rollup';

/** One per subscription for its whole life: continue-as-new keeps the id. */
export function subscriptionWorkflowId(subscriptionId: string): string {
  return `${subscriptionId}/lifecycle`;
}

/** One per event and endpoint: the id itself is what makes a delivery happen once. */
export function webhookDeliveryWorkflowId(eventId: string, endpointId: string): string {
  return `${eventId}/delivery/${endpointId}`;
}

/** One per webhook secret rotation, named by the secret the rotation issued. */
export function webhookKeyRotationWorkflowId(endpointId: string, issuedSecretRecordId: string): string {
  return `${endpointId}/rotation/${issuedSecretRecordId}`;
}

/** Builds a report's file, then removes it when the report expires. */
export function reportWorkflowId(reportId: string): string {
  return `${reportId}/export`;
}

/** Temporal Schedules of the provider money flows. */
export const SETTLEMENT_SCHEDULE_ID = 'maintenance/daily-settlements';
export const MONTHLY_STATEMENT_SCHEDULE_ID = 'maintenance/monthly-statements';
