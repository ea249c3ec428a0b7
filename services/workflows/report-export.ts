import type { Client } from '@temporalio/client';
import { formatDateTime } from '../../domain/datetime';
import { reportWorkflowId, TASK_QUEUE } from '../../domain/workflow-ids';
import type { reportExportWorkflow } from '../../workflows/report-export';

/**
 * Starts the report's workflow inside the creating transaction, before the commit: started
 * after it, a crash in between would leave a report PROCESSING for ever. If the commit fails
 * instead, the workflow finds no report and ends.
 */
export async function startReportExport(temporal: Client, reportId: string, expiresAt: Date): Promise<void> {
  await temporal.workflow.start<typeof reportExportWorkflow>('reportExportWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: reportWorkflowId(reportId),
    args: [{ reportId, expiresAt: formatDateTime(expiresAt) }],
  });
}
