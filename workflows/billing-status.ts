import { patched, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { BILLING_STATUS, searchAttributesOf, type WorkflowSubject } from '../domain/workflow-search-attributes';

/**
 * Marks runs that keep their BillingStatus search attribute current (docs/operators.md): an
 * upsert is a command, so runs from before it replay without one.
 */
export const BILLING_STATUS_PATCH = 'billing-status-search-attribute';

/**
 * Sets the run's search attributes to `subject` when its status is not the one last set (at the
 * start, or by the previous upsert). A run started before the attributes existed gets every one
 * its subject names with its first change.
 */
export function keepBillingStatus(subject: WorkflowSubject): void {
  if (workflowInfo().typedSearchAttributes.get(BILLING_STATUS) === subject.billingStatus) return;
  if (!patched(BILLING_STATUS_PATCH)) return;
  upsertSearchAttributes(searchAttributesOf(subject));
}
