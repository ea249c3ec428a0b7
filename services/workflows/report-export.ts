import type { Client } from '@temporalio/client';
import { formatDateTime } from '../../domain/datetime';
import { reportWorkflowId, TASK_QUEUE } from '../../domain/workflow-ids';
import { searchAttributesOf } from '../../domain/workflow-search-attributes';
import type { reportExportWorkflow } from '../../workflows/report-export';

/**
 * Starts the report's workflow inside the creating transaction, before the commit: started
 * after it, a crash in between would leave a report PROCESSING for ever. If the commit fails
 * instead, the workflow finds no report and ends.
 */
export async function startReportExport(temporal: Client, report: { id: string; accountId: string; reportType: string }, expiresAt: Date): Promise<void> {
  await temporal.workflow.start<typeof reportExportWorkflow>('reportExportWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: reportWorkflowId(report.id),
    args: [{ reportId: report.id, expiresAt: formatDateTime(expiresAt) }],
    typedSearchAttributes: searchAttributesOf({ resourceId: report.id, accountId: report.accountId }),
    staticSummary: `Export ${report.reportType} report ${report.id}, kept until ${formatDateTime(expiresAt)}`,
  });
}
