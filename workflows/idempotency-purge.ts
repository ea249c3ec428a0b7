import { continueAsNew, patched, proxyActivities, setCurrentDetails, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { idempotencyPurgeSummary } from '../domain/maintenance-summaries';
import { runDetails, waitingUntil } from '../domain/workflow-details';

const { purgeExpiredIdempotencyRecords, purgeExpiredV1RestoreRequests, purgeExpiredSignInRecords } = proxyActivities<Activities>({
  // Paced to a share of the time (docs/retention.md, "Pacing"), a catch-up of millions of records
  // outlasts minutes; the heartbeat after every batch is what tells a stuck one from a busy one.
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '10 seconds', maximumInterval: '10 minutes' },
});

export interface IdempotencyPurgeInput {
  intervalMinutes: number;
  /** Runs left before continuing as new; the test lowers it to prove the hand-over. */
  runsPerExecution?: number;
}

/**
 * Reclaims idempotency records past their 24 hours, and the recorded v1 restore answers of
 * secrets rotated out, and the dashboard's sign-in counts whose window is over and sign-in clients
 * past the known-client period, every `intervalMinutes`, forever. One execution does a bounded number of runs,
 * then continues as new, so its history never grows.
 */
export async function idempotencyPurgeWorkflow(input: IdempotencyPurgeInput): Promise<void> {
  const runs = input.runsPerExecution ?? 100;
  const summary = idempotencyPurgeSummary(input.intervalMinutes);
  for (let run = 0; run < runs && !workflowInfo().continueAsNewSuggested; run++) {
    const which = `purge ${run + 1} of ${runs} before this run continues as new`;
    setCurrentDetails(runDetails(summary, `Running ${which}`));
    await purgeExpiredIdempotencyRecords.executeWithOptions({ summary: `Delete idempotency records past their 24 hours (${which})` }, []);
    // Added while executions ran: one replaying a history from before it must not schedule it.
    if (patched('v1-restore-request-purge')) {
      await purgeExpiredV1RestoreRequests.executeWithOptions({ summary: `Delete the v1 restore answers of rotated-out secrets (${which})` }, []);
    }
    if (patched('dashboard-sign-in-record-purge')) {
      await purgeExpiredSignInRecords.executeWithOptions(
        { summary: `Delete dashboard sign-in counts whose window is over and clients past the known-client period (${which})` },
        [],
      );
    }
    const wait = input.intervalMinutes * 60_000;
    setCurrentDetails(runDetails(summary, waitingUntil(Date.now() + wait, `after ${which}`)));
    await sleep(wait);
  }
  await continueAsNew<typeof idempotencyPurgeWorkflow>(input);
}
