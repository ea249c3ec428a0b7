import { ActivityFailure, proxyActivities, setCurrentDetails, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { waitingUntil } from '../domain/workflow-details';

const { exportReport } = proxyActivities<Activities>({
  // Generous for the largest report; a stalled attempt is caught by the heartbeat instead.
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '2 minutes',
  // About two minutes of attempts in all: also covers a report whose creating transaction commits just after this starts.
  retry: { initialInterval: '1 second', backoffCoefficient: 3, maximumInterval: '2 minutes', maximumAttempts: 6 },
});

const { failReport, expireReport } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

export interface ReportExportInput {
  reportId: string;
  /** When the report expires (ISO 8601): 30 days after its creation. */
  expiresAt: string;
}

export const REPORT_FAILURE_REASON = 'The export could not be completed. Create the report again; the request-id of reports/create helps support.';

/**
 * One report's life (docs/reports.md): build the file (PROCESSING → SUCCEEDED, or FAILED once
 * the attempts are spent), then a durable timer until the report expires, which removes the
 * file (→ EXPIRED). History: a handful of events, so no continue-as-new.
 */
export async function reportExportWorkflow(input: ReportExportInput): Promise<{ status: string }> {
  try {
    await exportReport.executeWithOptions({ summary: `Write report ${input.reportId} to storage` }, [{ reportId: input.reportId }]);
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    // Also the end of a report whose creating transaction rolled back after this workflow started.
    const { found } = await failReport.executeWithOptions({ summary: `Mark report ${input.reportId} FAILED: its export failed every attempt` }, [
      { reportId: input.reportId, reason: REPORT_FAILURE_REASON },
    ]);
    if (!found) return { status: 'MISSING' };
  }
  // Workflow time: replayed from history, so the timer is the same on every replay.
  const remaining = Date.parse(input.expiresAt) - Date.now();
  if (remaining > 0) {
    setCurrentDetails(waitingUntil(Date.parse(input.expiresAt), `to expire report ${input.reportId} and delete its file`));
    await sleep(remaining);
  }
  return expireReport.executeWithOptions({ summary: `Expire report ${input.reportId} and delete its file` }, [{ reportId: input.reportId }]);
}
